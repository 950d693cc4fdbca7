#include "musatop/output/json_output.hpp"

#include <cmath>

#include <nlohmann/json.hpp>

#include "musatop/output/format.hpp"

namespace musatop {
namespace {

using json = nlohmann::ordered_json;

template <typename T>
json optional_value(const std::optional<T>& value) {
    return value ? json(*value) : json(nullptr);
}

// Floats always print with a fraction ("42.0"), like Python; non-finite is unknown.
json optional_float(const std::optional<double>& value) {
    return (value && std::isfinite(*value)) ? json(*value) : json(nullptr);
}

json optional_time(const std::optional<WallTime>& time) {
    return time ? json(format_iso8601(*time)) : json(nullptr);
}

json device_json(const Device& d) {
    json out;
    out["index"] = d.index;
    out["uuid"] = optional_value(d.uuid);
    out["name"] = optional_value(d.name);
    out["bus_id"] = optional_value(d.bus_id);
    out["gpu_utilization_percent"] = optional_float(d.gpu_utilization_percent);
    out["memory_utilization_percent"] = optional_float(d.memory_utilization_percent);
    out["memory_used_bytes"] = optional_value(d.memory_used_bytes);
    out["memory_total_bytes"] = optional_value(d.memory_total_bytes);
    out["memory_free_bytes"] = optional_value(d.memory_free_bytes);
    out["temperature_c"] = optional_float(d.temperature_c);
    out["power_draw_w"] = optional_float(d.power_draw_w);
    out["power_limit_w"] = optional_float(d.power_limit_w);
    out["power_limit_reason"] = optional_value(d.power_limit_reason);
    out["graphics_clock_mhz"] = optional_float(d.graphics_clock_mhz);
    out["memory_clock_mhz"] = optional_float(d.memory_clock_mhz);
    return out;
}

json process_json(const GpuProcess& p) {
    json out;
    out["device_index"] = p.device_index;
    out["pid"] = p.pid;
    out["device_uuid"] = optional_value(p.device_uuid);
    out["gpu_memory_bytes"] = optional_value(p.gpu_memory_bytes);
    out["username"] = optional_value(p.username);
    out["command"] = optional_value(p.command);
    out["cpu_percent"] = optional_float(p.cpu_percent);
    out["rss_bytes"] = optional_value(p.rss_bytes);
    out["create_time"] = optional_float(p.create_time);
    out["running_seconds"] = optional_float(p.running_seconds);
    out["status"] = to_string(p.status);
    return out;
}

}  // namespace

std::string render_json(const Snapshot& s) {
    json out;
    out["schema_version"] = 1;
    out["sampled_at"] = format_iso8601(s.sampled_at);
    out["devices_sampled_at"] = optional_time(s.devices_sampled_at);
    out["processes_sampled_at"] = optional_time(s.processes_sampled_at);
    out["driver_version"] = optional_value(s.driver_version);
    out["gmi_version"] = optional_value(s.gmi_version);
    out["musa_version"] = optional_value(s.musa_version);
    out["musa_version_source"] = optional_value(s.musa_version_source);
    out["musa_version_reason"] = optional_value(s.musa_version_reason);
    json host;
    host["hostname"] = optional_value(s.host.hostname);
    host["cpu_percent"] = optional_float(s.host.cpu_percent);
    host["memory_used_bytes"] = optional_value(s.host.memory_used_bytes);
    host["memory_total_bytes"] = optional_value(s.host.memory_total_bytes);
    out["host"] = std::move(host);
    out["devices"] = json::array();
    for (const auto& device : s.devices) out["devices"].push_back(device_json(device));
    out["processes"] = json::array();
    for (const auto& process : s.processes) out["processes"].push_back(process_json(process));
    out["devices_stale"] = s.devices_stale;
    out["processes_stale"] = s.processes_stale;
    out["errors"] = s.errors;
    // Additions to schema 1 (after every original key, so v1 readers are unaffected).
    out["device_source"] = s.device_source == DeviceSource::none ? json(nullptr) : json(to_string(s.device_source));
    out["device_source_reason"] = optional_value(s.device_source_reason);
    out["processes_unverified_reason"] = optional_value(s.processes_unverified_reason);
    return out.dump(2, ' ', true, json::error_handler_t::replace) + "\n";
}

}  // namespace musatop
