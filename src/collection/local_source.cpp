#include "musatop/collection/local_source.hpp"

#include <chrono>

namespace musatop {

LocalSource::LocalSource(gmi::GmiSettings settings, HealthThresholds health)
    : settings_(settings), gmi_(std::move(settings)), health_(health) {}

Snapshot LocalSource::collect(const CancelToken& cancel) {
    Snapshot snapshot;
    snapshot.sampled_at = wall_now();
    if (!toolkit_) toolkit_ = toolkit::detect_toolkit_version(toolkit::search_places_from_environment());
    snapshot.musa_version = toolkit_->version;
    snapshot.musa_version_source = toolkit_->source;
    snapshot.musa_version_reason = toolkit_->reason;

    gmi_.sample(snapshot, cancel.fd());
    enricher_.enrich(snapshot.processes, wall_now(), mono_now());
    snapshot.processes_unverified_reason = enricher_.unverified_reason();
    health_.assess(snapshot, mono_now());
    host_.sample_into(snapshot);
    return snapshot;
}

std::string LocalSource::describe() const { return settings_.executable + " and /proc"; }

}  // namespace musatop
