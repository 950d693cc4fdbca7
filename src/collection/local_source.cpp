#include "musatop/collection/local_source.hpp"

#include <chrono>

#include "musatop/collection/driver/driver_parse.hpp"

namespace musatop {

namespace {

// Each gpuNN whose PCI function GMI lists lends that GPU its driver status; one
// that cannot be tied is not guessed onto a GPU.
void attach_driver_status(Snapshot& snapshot, const driver::DriverTree& tree) {
    for (const auto& gpu : tree.gpus) {
        bool tied = false;
        for (auto& device : snapshot.devices)
            if (gpu.bus_id && device.bus_id && driver::same_pci_function(*device.bus_id, *gpu.bus_id)) {
                device.driver = gpu.status;
                device.driver_events = driver::distinct_events(gpu.events);
                tied = true;
            }
        if (!tied)
            snapshot.untied_driver_gpus.push_back(
                {gpu.directory, gpu.unmapped.value_or("GMI lists no GPU at " + gpu.bus_id.value_or("?")), gpu.status});
    }
}

}  // namespace

LocalSource::LocalSource(gmi::GmiSettings settings, HealthThresholds health, std::string driver_root)
    : settings_(settings), gmi_(std::move(settings)), driver_(std::move(driver_root)), health_(health) {}

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
    // The driver's files are read even when GMI fails: then they are what is left.
    attach_driver_status(snapshot, driver_.read(false));
    health_.assess(snapshot, mono_now());
    host_.sample_into(snapshot);
    return snapshot;
}

std::string LocalSource::describe() const { return settings_.executable + " and /proc"; }

}  // namespace musatop
