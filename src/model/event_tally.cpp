#include "musatop/model/event_tally.hpp"

#include <algorithm>

namespace musatop {
namespace {

void add(std::vector<EventTotal>& totals, const DriverEvent& e) {
    auto it = std::find_if(totals.begin(), totals.end(),
                           [&](const EventTotal& t) { return t.id == e.id && t.severity == e.severity; });
    if (it == totals.end()) it = totals.insert(totals.end(), EventTotal{e.id, e.severity, 0, e.time_seconds});
    ++it->count;
    it->last_time_seconds = std::max(it->last_time_seconds, e.time_seconds);
}

}  // namespace

void EventTally::observe(std::vector<Device>& devices) {
    for (auto& device : devices) {
        const auto key = device.bus_id ? device.bus_id : device.uuid;
        if (!key) continue;
        PerGpu& gpu = gpus_[*key];
        if (!device.driver_events) {  // not read this round: nothing is known to be new
            device.driver_event_totals = gpu.totals;
            continue;
        }
        for (const auto& event : *device.driver_events) {
            const bool seen = std::any_of(gpu.previous.begin(), gpu.previous.end(),
                                          [&](const DriverEvent& old) { return same_event(old, event); });
            if (!seen) add(gpu.totals, event);
        }
        gpu.previous = *device.driver_events;
        device.driver_event_totals = gpu.totals;
    }
}

}  // namespace musatop
