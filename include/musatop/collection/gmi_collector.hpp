// The real collector: mthreads-gmi for GPUs and GPU processes, /proc for the host
// and for process details, version.json for the Toolkit version.
#pragma once

#include <optional>

#include "musatop/collection/collector.hpp"
#include "musatop/collection/gmi/gmi_source.hpp"
#include "musatop/collection/procfs/host_sampler.hpp"
#include "musatop/collection/procfs/process_enricher.hpp"
#include "musatop/collection/toolkit/toolkit_version.hpp"

namespace musatop {

class GmiCollector final : public Collector {
public:
    explicit GmiCollector(gmi::GmiSettings settings);
    Snapshot collect(int cancel_fd = -1) override;

private:
    gmi::GmiSource gmi_;
    procfs::ProcessEnricher enricher_;
    procfs::HostSampler host_;
    std::optional<toolkit::ToolkitVersion> toolkit_;  // detected once per run
};

}  // namespace musatop
