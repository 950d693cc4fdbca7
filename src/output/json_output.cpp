#include "musatop/output/json_output.hpp"

#include <cmath>

#include <nlohmann/json.hpp>

#include "driver_json.hpp"
#include "json_fields.hpp"
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

json optional_time(const std::optional<WallTime>& time) { return time ? json(format_iso8601(*time)) : json(nullptr); }

template <typename Row, std::size_t N>
json row_json(const Row& row, const std::array<json_fields::Field<Row>, N>& fields) {
    json out;
    for (const auto& field : fields)
        std::visit(
            [&](auto member) {
                const auto& value = row.*member;
                using Value = std::decay_t<decltype(value)>;
                if constexpr (std::is_same_v<Value, std::optional<double>>) {
                    out[std::string(field.key)] = optional_float(value);
                } else if constexpr (std::is_same_v<Value, std::int64_t> ||
                                     std::is_same_v<Value, std::vector<std::string>>) {
                    out[std::string(field.key)] = value;
                } else {
                    out[std::string(field.key)] = optional_value(value);
                }
            },
            field.member);
    return out;
}

json process_json(const GpuProcess& p) {
    json out = row_json(p, json_fields::kProcess);
    out["status"] = to_string(p.status);
    out.update(row_json(p.attribution, json_fields::kAttribution));
    out.update(row_json(p, json_fields::kProcessDriver));
    out["gpu_engine_utilization_percent"] = driver_json::engines_json(p.gpu_engine_utilization);
    return out;
}

json device_json(const Device& d) {
    json out = row_json(d, json_fields::kDevice);
    out["driver"] = driver_json::status_json(d.driver);
    out["driver_events"] = d.driver_events ? driver_json::events_json(*d.driver_events) : nullptr;
    return out;
}

}  // namespace

namespace {

json snapshot_json(const Snapshot& s) {
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
    out["host"] = row_json(s.host, json_fields::kHost);
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
    out["health"] = s.health;
    out["untied_driver_gpus"] = driver_json::untied_json(s.untied_driver_gpus);
    return out;
}

}  // namespace

std::string render_json(const Snapshot& s) {
    return snapshot_json(s).dump(2, ' ', true, json::error_handler_t::replace) + "\n";
}

std::string render_json_compact(const Snapshot& s) {
    return snapshot_json(s).dump(-1, ' ', true, json::error_handler_t::replace);
}

}  // namespace musatop
