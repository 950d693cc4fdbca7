// The agent's Prometheus series, named once for both of their ends: `musatop serve`
// renders /metrics from this table, and the cluster view's Prometheus mode builds
// its query from it and reads the series back through it, units included (a
// series in base units, a Device member in the model's: percent, MHz). The
// metric names are a contract (../shared/spec/cluster.md); a new GPU reading is
// one row here.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <variant>

#include "musatop/model/snapshot.hpp"

namespace musatop::metrics {

// Families with labels rather than a per-GPU value.
inline constexpr std::string_view kBuildInfo = "musatop_build_info";
inline constexpr std::string_view kHostInfo = "musatop_host_info";
inline constexpr std::string_view kHostHealthFindings = "musatop_host_health_findings";
// The host's own load, so that a cluster view built from Prometheus shows what a
// direct one shows (added after cluster.md's names; omitted while unknown).
inline constexpr std::string_view kHostCpu = "musatop_host_cpu_utilization_ratio";
inline constexpr std::string_view kHostMemoryUsed = "musatop_host_memory_used_bytes";
inline constexpr std::string_view kHostMemoryTotal = "musatop_host_memory_total_bytes";
// GMI's "Attached GPUs": more than musatop_gpu_info lists is a lost card (the alert rules).
inline constexpr std::string_view kHostGpusAttached = "musatop_host_gpus_attached";
inline constexpr std::string_view kGpuInfo = "musatop_gpu_info";
inline constexpr std::string_view kCollectSuccess = "musatop_collect_success";
inline constexpr std::string_view kCollectTimestamp = "musatop_collect_timestamp_seconds";
inline constexpr std::string_view kCollectDuration = "musatop_collect_duration_seconds";
inline constexpr std::string_view kCollectErrors = "musatop_collect_errors_total";
inline constexpr std::string_view kProcessGpuMemory = "musatop_process_gpu_memory_bytes";
inline constexpr std::string_view kProcessInfo = "musatop_process_info";
// The MUSA driver's own files (docs/driver.md), node_exporter-style names.
inline constexpr std::string_view kDriverStatus = "musatop_gpu_driver_status";
inline constexpr std::string_view kFirmwareStatus = "musatop_gpu_firmware_status";
inline constexpr std::string_view kDriverCounter = "musatop_gpu_driver_status_events_total";
inline constexpr std::string_view kDriverUtilization = "musatop_gpu_driver_utilization_ratio";
inline constexpr std::string_view kDriverEngineUtilization = "musatop_gpu_driver_engine_utilization_ratio";
inline constexpr std::string_view kXidEvents = "musatop_gpu_xid_events_total";
inline constexpr std::string_view kXidLastTimestamp = "musatop_gpu_xid_last_timestamp_seconds";
inline constexpr std::string_view kProcessGpuUtilization = "musatop_process_gpu_utilization_ratio";

// A GPU gauge computed from the snapshot rather than read from one member.
enum class Derived { none, process_count, health_findings };

struct GpuMetric {
    std::string_view name;
    std::string_view help;
    // The member it exports; std::monostate for a Derived one.
    std::variant<std::monostate, std::optional<double> Device::*, std::optional<std::int64_t> Device::*,
                 std::optional<bool> Device::*>
        member;
    // series value = member value × 10^power (percent → ratio: -2; MHz → Hz: 6). A
    // power rather than a factor: dividing by 100 is exact where × 0.01 is not.
    int power = 0;
    bool drawn = false;  // the cluster screen and --once show it (Prometheus mode asks for it first)
    Derived derived = Derived::none;
};

extern const std::array<GpuMetric, 23> kGpuMetrics;

// The series value of a member-backed metric; none when unknown or not finite.
std::optional<double> series_value(const GpuMetric& metric, const Device& device);
// The inverse: a series value back into the member, in the model's unit (whole
// numbers rounded). Derived metrics are not read back.
void read_back(const GpuMetric& metric, Device& device, double value);
// The row named `name`, if the table has one.
const GpuMetric* find_gpu_metric(std::string_view name);

}  // namespace musatop::metrics
