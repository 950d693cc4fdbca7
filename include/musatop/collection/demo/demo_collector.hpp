// `musatop --demo`: synthetic GPUs and processes whose load moves over time, so the
// program can be seen on a machine without a Moore Threads GPU. Host metrics are real.
#pragma once

#include <chrono>

#include "musatop/collection/collector.hpp"
#include "musatop/collection/procfs/host_sampler.hpp"

namespace musatop {

// The synthetic part alone, as a pure function of the seconds since the demo started.
Snapshot make_demo_snapshot(double elapsed_seconds, WallTime now);

class DemoCollector final : public Collector {
public:
    DemoCollector();
    Snapshot collect(int cancel_fd = -1) override;

private:
    std::chrono::steady_clock::time_point started_;
    procfs::HostSampler host_;
};

}  // namespace musatop
