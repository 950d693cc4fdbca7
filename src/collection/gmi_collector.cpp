#include "musatop/collection/gmi_collector.hpp"

#include <chrono>

namespace musatop {

GmiCollector::GmiCollector(gmi::GmiSettings settings) : gmi_(std::move(settings)) {}

Snapshot GmiCollector::collect(int cancel_fd) {
    Snapshot snapshot;
    snapshot.sampled_at = std::chrono::system_clock::now();
    if (!toolkit_) toolkit_ = toolkit::detect_toolkit_version(toolkit::search_places_from_environment());
    snapshot.musa_version = toolkit_->version;
    snapshot.musa_version_source = toolkit_->source;
    snapshot.musa_version_reason = toolkit_->reason;

    gmi_.sample(snapshot, cancel_fd);
    enricher_.enrich(snapshot.processes, std::chrono::system_clock::now(), std::chrono::steady_clock::now());
    host_.sample_into(snapshot);
    return snapshot;
}

}  // namespace musatop
