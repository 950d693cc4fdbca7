// Counts each driver event once across rounds, for counters that only rise: the
// ring is read whole every round, holds 50 events, wraps and is cleared by a reset,
// so its contents are not a count. An event is new when the GPU's previous ring
// did not hold it; totals and the newest time per id are kept for the run.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "musatop/model/snapshot.hpp"

namespace musatop {

class EventTally {
public:
    // Adds the new events of each GPU's ring and sets its driver_event_totals.
    void observe(std::vector<Device>& devices);

private:
    struct PerGpu {
        std::vector<DriverEvent> previous;  // the ring as last read
        std::vector<EventTotal> totals;
    };
    std::map<std::string, PerGpu> gpus_;  // by bus id (or uuid), never by index
};

}  // namespace musatop
