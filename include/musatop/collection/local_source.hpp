// The live source of this host: mthreads-gmi for GPUs and GPU processes, /proc for
// the host and for process details, version.json for the Toolkit version.
#pragma once

#include <optional>

#include "musatop/collection/driver/bounded_driver_reader.hpp"
#include "musatop/collection/gmi/gmi_source.hpp"
#include "musatop/collection/procfs/host_sampler.hpp"
#include "musatop/collection/procfs/process_enricher.hpp"
#include "musatop/collection/toolkit/toolkit_version.hpp"
#include "musatop/model/event_tally.hpp"
#include "musatop/model/health.hpp"
#include "musatop/model/source.hpp"

namespace musatop {

class LocalSource final : public Source {
public:
    // `driver`: where /proc/driver/musa and /sys are ("/"; a fake tree in tests) and
    // whether proc_util is read.
    explicit LocalSource(gmi::GmiSettings settings, HealthThresholds health = {}, driver::DriverOptions driver = {});
    Snapshot collect(const CancelToken& cancel) override;
    std::string describe() const override;
    void hide_other_users(bool hide) { enricher_.hide_other_users(hide); }

private:
    gmi::GmiSettings settings_;
    gmi::GmiSource gmi_;
    procfs::ProcessEnricher enricher_;
    procfs::HostSampler host_;
    driver::BoundedDriverReader driver_;
    bool process_util_ = false;
    HealthMonitor health_;
    EventTally events_;
    std::optional<toolkit::ToolkitVersion> toolkit_;  // detected once per run
};

}  // namespace musatop
