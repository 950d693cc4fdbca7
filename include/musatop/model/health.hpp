// Device health: findings derived from the readings GMI gives, as short sentences
// for the screen, the text output, the JSON `health` lists and /metrics. The rules
// and their thresholds are described in docs/health.md.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "musatop/model/snapshot.hpp"
#include "musatop/util/clock.hpp"

namespace musatop {

struct HealthThresholds {
    // Power draw at or above this share of the current limit is "at the limit":
    // a capped board hovers just under its cap rather than on it.
    double power_at_limit_ratio = 0.98;
    // Throttling is inferred (GMI gives no reasons) when the GPU is at least this
    // busy and its graphics clock below this share of its maximum.
    double throttle_busy_percent = 80;
    double throttle_clock_ratio = 0.5;
    // A link may train down its generation to save power when idle; below its
    // maximum generation is a finding only while this busy. Width is always one.
    double generation_busy_percent = 50;
    // Memory held while idle: at least this much in use at 0 % for this long.
    std::int64_t idle_memory_bytes = std::int64_t{1} << 30;
    Seconds idle_held_for{300};
    // Warning and fatal driver events this recent are findings.
    Seconds event_window{3600};
};

// The findings that one reading of a device supports on its own (no history).
std::vector<std::string> device_findings(const Device& device, const HealthThresholds& thresholds);

// Host-wide findings: GMI counts more attached GPUs than it lists (a lost card).
std::vector<std::string> host_findings(const Snapshot& snapshot);

// Applies every rule to a snapshot, including "memory held while idle", which
// needs the time a GPU has been idle: the monitor remembers it between rounds.
// The clock is an argument so tests drive it.
class HealthMonitor {
public:
    explicit HealthMonitor(HealthThresholds thresholds = {}) : thresholds_(thresholds) {}

    // Writes every device's `health` and the snapshot's `health`.
    void assess(Snapshot& snapshot, MonoTime now);

private:
    // The driver's recovery and fault counters that rose since musatop first saw them.
    void watch_driver_counters(Snapshot& snapshot, MonoTime now);

    struct CounterBaseline {
        MonoTime since;
        std::vector<DriverCounter> counters;
    };
    HealthThresholds thresholds_;
    std::map<std::string, MonoTime> idle_since_;  // by UUID, or "index:N"
    std::map<std::string, CounterBaseline> driver_baseline_;
};

}  // namespace musatop
