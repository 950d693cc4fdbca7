#include "musatop/model/view_filter.hpp"

#include <algorithm>
#include <array>
#include <tuple>

#include "musatop/util/text.hpp"

namespace musatop {
namespace {

constexpr std::array<SortField, 7> sort_order = {SortField::gpu_memory, SortField::gpu_util, SortField::cpu,
                                                 SortField::rss,        SortField::pid,      SortField::user,
                                                 SortField::gpu};

// -1, 0, 1 comparison of a present attribute; nullopt when the row's value is unknown.
struct Key {
    bool known = false;
    double number = 0;
    std::string text;
};

Key key_of(const GpuProcess& p, SortField field) {
    switch (field) {
        case SortField::gpu_memory:
            return p.gpu_memory_bytes ? Key{true, static_cast<double>(*p.gpu_memory_bytes), {}} : Key{};
        case SortField::gpu_util: return p.gpu_utilization_percent ? Key{true, *p.gpu_utilization_percent, {}} : Key{};
        case SortField::cpu: return p.cpu_percent ? Key{true, *p.cpu_percent, {}} : Key{};
        case SortField::rss: return p.rss_bytes ? Key{true, static_cast<double>(*p.rss_bytes), {}} : Key{};
        case SortField::pid: return Key{true, static_cast<double>(p.pid), {}};
        case SortField::user: return p.username ? Key{true, 0, *p.username} : Key{};
        case SortField::gpu: return Key{true, static_cast<double>(p.device_index), {}};
    }
    return Key{};
}

bool descending_by_default(SortField field) {
    return field == SortField::gpu_memory || field == SortField::gpu_util || field == SortField::cpu ||
           field == SortField::rss;
}

bool by_pid_then_gpu(const GpuProcess& a, const GpuProcess& b) {
    return std::tie(a.pid, a.device_index) < std::tie(b.pid, b.device_index);
}

}  // namespace

const char* to_string(SortField field) {
    switch (field) {
        case SortField::gpu_memory: return "gpu_memory";
        case SortField::gpu_util: return "gpu_util";
        case SortField::cpu: return "cpu";
        case SortField::rss: return "rss";
        case SortField::pid: return "pid";
        case SortField::user: return "user";
        case SortField::gpu: return "gpu";
    }
    return "gpu_memory";
}

std::optional<SortField> sort_field_from_string(std::string_view name) {
    for (auto field : sort_order)
        if (name == to_string(field)) return field;
    return std::nullopt;
}

SortField next_sort_field(SortField field, bool host_columns, bool gpu_util_column) {
    auto it = std::find(sort_order.begin(), sort_order.end(), field);
    do {
        it = (it == sort_order.end() || it + 1 == sort_order.end()) ? sort_order.begin() : it + 1;
    } while ((!host_columns && (*it == SortField::cpu || *it == SortField::rss)) ||
             (!gpu_util_column && *it == SortField::gpu_util));
    return *it;
}

bool device_visible(const Device& device, const ViewFilter& filter) {
    return !filter.gpu_indices || filter.gpu_indices->count(device.index);
}

bool process_visible(const GpuProcess& p, const ViewFilter& filter) {
    if (filter.gpu_indices && !filter.gpu_indices->count(p.device_index)) return false;
    if (filter.pids && !filter.pids->count(p.pid)) return false;
    for (const auto& user : filter.users)
        if (p.username != user) return false;
    if (filter.slurm_job && !job_matches(p.attribution, *filter.slurm_job)) return false;
    if (filter.container_prefix && !container_matches(p.attribution, *filter.container_prefix)) return false;
    if (!filter.search.empty()) {
        const Attribution& a = p.attribution;
        const std::string haystack = std::to_string(p.pid) + " " + std::to_string(p.device_index) + " " +
                                     p.username.value_or("") + " " + p.command.value_or("") + " " +
                                     job_label(a).value_or("") + " " + a.container_id.value_or("") + " " +
                                     a.pod_uid.value_or("") + " " + a.systemd_unit.value_or("");
        if (text::fold_case(haystack).find(text::fold_case(filter.search)) == std::string::npos) return false;
    }
    return true;
}

bool process_before(const GpuProcess& a, const GpuProcess& b, SortField field, bool reverse) {
    const Key ka = key_of(a, field);
    const Key kb = key_of(b, field);
    if (ka.known != kb.known) return ka.known;  // unknown values last, whatever the direction
    if (ka.known) {
        const bool descending = descending_by_default(field) != reverse;
        if (field == SortField::user && ka.text != kb.text) return descending ? kb.text < ka.text : ka.text < kb.text;
        if (field != SortField::user && ka.number != kb.number)
            return descending ? kb.number < ka.number : ka.number < kb.number;
    }
    return by_pid_then_gpu(a, b);
}

void sort_processes(std::vector<GpuProcess>& processes, SortField field, bool reverse) {
    std::stable_sort(processes.begin(), processes.end(),
                     [&](const GpuProcess& a, const GpuProcess& b) { return process_before(a, b, field, reverse); });
}

Snapshot apply_view(const Snapshot& snapshot, const ViewFilter& filter) {
    Snapshot view = snapshot;
    view.devices.clear();
    view.processes.clear();
    for (const auto& device : snapshot.devices)
        if (device_visible(device, filter)) view.devices.push_back(device);
    for (const auto& process : snapshot.processes)
        if (process_visible(process, filter)) view.processes.push_back(process);
    sort_processes(view.processes, filter.sort, filter.reverse);
    return view;
}

}  // namespace musatop
