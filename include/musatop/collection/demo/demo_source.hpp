// `musatop --demo`: synthetic GPUs and processes whose load moves over time, so the
// program can be seen on a machine without a Moore Threads GPU. Host metrics are real.
#pragma once

#include <chrono>

#include "musatop/collection/procfs/host_sampler.hpp"
#include "musatop/model/health.hpp"
#include "musatop/model/source.hpp"

namespace musatop {

// The synthetic part alone, as a pure function of the seconds since the demo started.
Snapshot make_demo_snapshot(double elapsed_seconds, WallTime now);

class DemoSource final : public Source {
public:
    explicit DemoSource(HealthThresholds health = {});
    Snapshot collect(const CancelToken& cancel) override;
    std::string describe() const override { return "demo (synthetic GPUs)"; }

private:
    std::chrono::steady_clock::time_point started_;
    procfs::HostSampler host_;
    HealthMonitor health_;
};

}  // namespace musatop
