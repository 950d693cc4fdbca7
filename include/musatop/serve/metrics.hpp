// `/metrics`: the Prometheus text exposition (format 0.0.4) of the newest frame, as
// ../shared/spec/cluster.md §1 fixes it. Pure: a frame in, text out. Series are
// built fresh on every call, so a vanished GPU or process disappears, and a value
// GMI does not give is an omitted series, never 0.
#pragma once

#include <string>
#include <string_view>

#include "musatop/model/snapshot.hpp"
#include "musatop/sampler/sampler.hpp"
#include "musatop/serve/process_metrics.hpp"
#include "musatop/util/clock.hpp"

namespace musatop::serve {

struct MetricsInput {
    const Snapshot* snapshot = nullptr;  // filtered view of the newest frame; null before the first
    RoundCounts counts;
    Seconds interval{1.0};
    WallTime now{};
    ProcessMetrics processes = ProcessMetrics::off;
};

std::string render_metrics(const MetricsInput& input);

// A label value: unsafe characters replaced (as on the screen), then \, " and
// newline escaped as the exposition format requires.
std::string label_value(std::string_view text);

// Whether the device source has been failing for longer than three intervals,
// after which GPU value series are left out (Prometheus marks them stale).
bool devices_too_stale(const Snapshot& snapshot, Seconds interval, WallTime now);

}  // namespace musatop::serve
