// (internal to the output layer) The keys of a device and of a process row in the
// JSON document, in schema order, with the member each one holds: render_json
// writes from this table and parse_json_snapshot reads with it, so a new reading
// is one line here and the two directions cannot drift apart.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "musatop/model/snapshot.hpp"

namespace musatop::json_fields {

template <typename Row>
using Member = std::variant<std::int64_t Row::*, std::optional<std::string> Row::*, std::optional<double> Row::*,
                            std::optional<std::int64_t> Row::*>;

template <typename Row>
struct Field {
    const char* key;
    Member<Row> member;
};

inline const std::array<Field<Device>, 15> kDevice = {{
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

}  // namespace musatop::json_fields
