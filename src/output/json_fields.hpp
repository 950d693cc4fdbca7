// (internal to the output layer) The keys of a device and of a process row in the
// JSON document, in schema order, with the member each one holds: render_json
// writes from this table and parse_json_snapshot reads with it, so a new reading
// is one line here and the two directions cannot drift apart.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "musatop/model/snapshot.hpp"

namespace musatop::json_fields {

template <typename Row>
using Member =
    std::variant<std::int64_t Row::*, std::optional<std::string> Row::*, std::optional<double> Row::*,
                 std::optional<std::int64_t> Row::*, std::optional<bool> Row::*, std::vector<std::string> Row::*>;

template <typename Row>
struct Field {
    std::string_view key;  // with its length: the reader compares many keys a document
    Member<Row> member;
};

inline const std::array<Field<Device>, 34> kDevice = {{
    {"index", &Device::index},
    {"uuid", &Device::uuid},
    {"name", &Device::name},
    {"bus_id", &Device::bus_id},
    {"gpu_utilization_percent", &Device::gpu_utilization_percent},
    {"memory_utilization_percent", &Device::memory_utilization_percent},
    {"memory_used_bytes", &Device::memory_used_bytes},
    {"memory_total_bytes", &Device::memory_total_bytes},
    {"memory_free_bytes", &Device::memory_free_bytes},
    {"temperature_c", &Device::temperature_c},
    {"power_draw_w", &Device::power_draw_w},
    {"power_limit_w", &Device::power_limit_w},
    {"power_limit_reason", &Device::power_limit_reason},
    {"graphics_clock_mhz", &Device::graphics_clock_mhz},
    {"memory_clock_mhz", &Device::memory_clock_mhz},
    // Added after schema 1's keys: link, engines, fan, limits, ECC, identity, findings.
    {"pcie_generation_current", &Device::pcie_generation_current},
    {"pcie_generation_max", &Device::pcie_generation_max},
    {"pcie_link_width_current", &Device::pcie_link_width_current},
    {"pcie_link_width_max", &Device::pcie_link_width_max},
    {"encoder_utilization_percent", &Device::encoder_utilization_percent},
    {"decoder_utilization_percent", &Device::decoder_utilization_percent},
    {"fan_speed_percent", &Device::fan_speed_percent},
    {"graphics_clock_max_mhz", &Device::graphics_clock_max_mhz},
    {"memory_clock_max_mhz", &Device::memory_clock_max_mhz},
    {"performance_state", &Device::performance_state},
    {"ecc_mode", &Device::ecc_mode},
    {"retired_pages_single_bit", &Device::retired_pages_single_bit},
    {"retired_pages_double_bit", &Device::retired_pages_double_bit},
    {"retired_pages_pending", &Device::retired_pages_pending},
    {"serial_number", &Device::serial_number},
    {"bios_version", &Device::bios_version},
    {"health", &Device::health},
    // The driver's files (docs/driver.md); "driver" and "driver_events" (objects,
    // driver_json.hpp) follow.
    {"driver_reason", &Device::driver_reason},
    {"driver_events_reason", &Device::driver_events_reason},
}};

// "status" (an enum) follows these in the document.
inline const std::array<Field<GpuProcess>, 10> kProcess = {{
    {"device_index", &GpuProcess::device_index},
    {"pid", &GpuProcess::pid},
    {"device_uuid", &GpuProcess::device_uuid},
    {"gpu_memory_bytes", &GpuProcess::gpu_memory_bytes},
    {"username", &GpuProcess::username},
    {"command", &GpuProcess::command},
    {"cpu_percent", &GpuProcess::cpu_percent},
    {"rss_bytes", &GpuProcess::rss_bytes},
    {"create_time", &GpuProcess::create_time},
    {"running_seconds", &GpuProcess::running_seconds},
}};

inline const std::array<Field<HostMetrics>, 4> kHost = {{
    {"hostname", &HostMetrics::hostname},
    {"cpu_percent", &HostMetrics::cpu_percent},
    {"memory_used_bytes", &HostMetrics::memory_used_bytes},
    {"memory_total_bytes", &HostMetrics::memory_total_bytes},
}};

// Appended after "status": who the process belongs to (GpuProcess::attribution).
inline const std::array<Field<Attribution>, 7> kAttribution = {{
    {"container_runtime", &Attribution::container_runtime},
    {"container_id", &Attribution::container_id},
    {"pod_uid", &Attribution::pod_uid},
    {"slurm_job_id", &Attribution::slurm_job_id},
    {"slurm_step", &Attribution::slurm_step},
    {"systemd_unit", &Attribution::systemd_unit},
    {"pod_qos_class", &Attribution::pod_qos_class},
}};

// Appended after the owner keys: the driver's per-process figures (--process-util);
// "gpu_engine_utilization_percent" (an object, driver_json.hpp) follows them.
inline const std::array<Field<GpuProcess>, 2> kProcessDriver = {{
    {"gpu_utilization_percent", &GpuProcess::gpu_utilization_percent},
    {"gpu_utilization_reason", &GpuProcess::gpu_utilization_reason},
}};

}  // namespace musatop::json_fields
