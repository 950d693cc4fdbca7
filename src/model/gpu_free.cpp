#include "musatop/model/gpu_free.hpp"

#include <algorithm>

namespace musatop {

std::optional<bool> gpu_is_free(const Device& device, const Snapshot& snapshot, const FreeRule& rule) {
    for (const auto& p : snapshot.processes)
        if (p.device_index == device.index) return false;  // a process known to be there, stale or not
    if (device.process_count_reported > 0) return false;   // counted by its agent, rows not exported
    const bool counted_none = device.process_count_reported == 0 && snapshot.processes_sampled_at;
    if (!counted_none && (snapshot.processes_stale || !snapshot.processes_sampled_at)) return std::nullopt;
    if (!device.gpu_utilization_percent) return std::nullopt;
    return *device.gpu_utilization_percent < rule.below_percent;
}

FreeCount count_free(const Snapshot& snapshot, const ViewFilter& filter, const FreeRule& rule) {
    FreeCount count;
    for (const auto& d : snapshot.devices) {
        if (!device_visible(d, filter)) continue;
        const auto free = gpu_is_free(d, snapshot, rule);
        ++(free ? (*free ? count.free : count.in_use) : count.unknown);
    }
    return count;
}

std::optional<std::vector<std::int64_t>> free_gpu_indices(const Snapshot& snapshot, const ViewFilter& filter,
                                                          const FreeRule& rule) {
    // Without the process list, only an agent's count of every GPU's processes
    // (through Prometheus) says which are free; else the list is unknown.
    const bool counted = std::all_of(snapshot.devices.begin(), snapshot.devices.end(), [&](const Device& d) {
        return !device_visible(d, filter) || d.process_count_reported.has_value();
    });
    if (!counted && (snapshot.processes_stale || !snapshot.processes_sampled_at)) return std::nullopt;
    std::vector<std::int64_t> indices;
    for (const auto& d : snapshot.devices)
        if (device_visible(d, filter) && gpu_is_free(d, snapshot, rule).value_or(false)) indices.push_back(d.index);
    return indices;
}

}  // namespace musatop
