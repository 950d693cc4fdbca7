#include "musatop/collection/local_source.hpp"

#include <chrono>

#include "musatop/collection/driver/driver_parse.hpp"

namespace musatop {

namespace {

// The proc_util row of a GMI process on this GPU: by the host PID the driver
// prints, else by VPid, the PID in the reader's namespace, which is what GMI
// reports when it runs in the same container as musatop.
const ProcessUtilization* row_of(const std::vector<ProcessUtilization>& rows, std::int64_t pid) {
    for (const auto& row : rows)
        if (row.pid == pid) return &row;
    for (const auto& row : rows)
        if (row.vpid != 0 && row.vpid == pid) return &row;
    return nullptr;
}

// Each GMI process of the GPU gets its proc_util figures, or the reason it has none.
void attach_process_util(std::vector<GpuProcess>& processes, std::int64_t device_index, const driver::DriverGpu& gpu) {
    for (auto& process : processes) {
        if (process.device_index != device_index) continue;
        if (!gpu.processes) {
            process.gpu_utilization_reason = gpu.processes_error.value_or("proc_util was not read");
            continue;
        }
        const ProcessUtilization* row = row_of(*gpu.processes, process.pid);
        if (!row) {
            process.gpu_utilization_reason = "proc_util lists no row for this process";
            continue;
        }
        process.gpu_utilization_percent = row->total_percent;
        process.gpu_engine_utilization = row->engines;
        if (!row->total_percent) process.gpu_utilization_reason = "proc_util has no Total column";
    }
}

// Each gpuNN whose PCI function GMI lists lends that GPU its driver status; one
// that cannot be tied is not guessed onto a GPU.
void attach_driver_status(Snapshot& snapshot, const driver::DriverTree& tree, bool process_util) {
    if (tree.blocked) {  // every GPU's driver readings are unknown, and each says why
        for (auto& device : snapshot.devices) device.driver_reason = device.driver_events_reason = tree.absent;
        return;
    }
    for (const auto& gpu : tree.gpus) {
        bool tied = false;
        for (auto& device : snapshot.devices)
            if (gpu.bus_id && device.bus_id && driver::same_pci_function(*device.bus_id, *gpu.bus_id)) {
                device.driver = gpu.status;
                device.driver_reason = gpu.status_error;
                if (!gpu.events_error) device.driver_events = driver::distinct_events(gpu.events);
                device.driver_events_reason = gpu.events_error;
                if (process_util) attach_process_util(snapshot.processes, device.index, gpu);
                tied = true;
            }
        if (!tied)
            snapshot.untied_driver_gpus.push_back(
                {gpu.directory, gpu.unmapped.value_or("GMI lists no GPU at " + gpu.bus_id.value_or("?")), gpu.status});
    }
}

}  // namespace

LocalSource::LocalSource(gmi::GmiSettings settings, HealthThresholds health, driver::DriverOptions driver)
    : settings_(settings),
      gmi_(std::move(settings)),
      driver_(std::move(driver.root)),
      process_util_(driver.process_util),
      health_(health) {}

Snapshot LocalSource::collect(const CancelToken& cancel) {
    Snapshot snapshot;
    snapshot.sampled_at = wall_now();
    if (!toolkit_) toolkit_ = toolkit::detect_toolkit_version(toolkit::search_places_from_environment());
    snapshot.musa_version = toolkit_->version;
    snapshot.musa_version_source = toolkit_->source;
    snapshot.musa_version_reason = toolkit_->reason;

    enricher_.mark_listing_start();
    gmi_.sample(snapshot, cancel.fd());
    enricher_.enrich(snapshot.processes, wall_now(), mono_now());
    snapshot.processes_unverified_reason = enricher_.unverified_reason();
    // The driver's files are read even when GMI fails: then they are what is left.
    const auto tree = driver_.read(process_util_, settings_.timeout, cancel.fd());
    attach_driver_status(snapshot, tree, process_util_);
    if (process_util_)
        for (auto& process : snapshot.processes)
            if (!process.gpu_utilization_percent && !process.gpu_utilization_reason)
                process.gpu_utilization_reason = tree.absent.value_or("no gpuNN of the driver is this GPU");
    events_.observe(snapshot.devices);
    health_.assess(snapshot, mono_now());
    host_.sample_into(snapshot);
    return snapshot;
}

std::string LocalSource::describe() const { return settings_.executable + " and /proc"; }

}  // namespace musatop
