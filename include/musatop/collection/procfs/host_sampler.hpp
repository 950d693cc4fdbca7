// Host name, CPU busy % between calls, and RAM used/total.
#pragma once

#include <optional>
#include <string>

#include "musatop/collection/procfs/proc_parse.hpp"
#include "musatop/model/snapshot.hpp"
#include "musatop/util/result.hpp"

namespace musatop::procfs {

class HostSampler {
public:
    explicit HostSampler(std::string proc_root = "/proc") : root_(std::move(proc_root)) {}

    // CPU% is unknown on the first call (no previous reading to compare with).
    Result<HostMetrics> sample();
    // Fills snapshot.host, or records "Host sampling failed: ..." and leaves it unknown.
    void sample_into(Snapshot& snapshot);

private:
    std::string root_;
    std::optional<CpuTimes> previous_;
};

}  // namespace musatop::procfs
