#include "driver_json.hpp"

#include <cmath>

#include "musatop/output/format.hpp"
#include "musatop/output/json_input.hpp"

namespace musatop::driver_json {
namespace {

template <typename T>
json or_null(const std::optional<T>& value) {
    return value ? json(*value) : json(nullptr);
}

json percent_json(const std::optional<double>& value) {
    return value && std::isfinite(*value) ? json(*value) : json(nullptr);
}

using Problem = std::optional<std::string>;

Problem text_of(const json& object, const char* key, std::optional<std::string>& out, const std::string& where) {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) return std::nullopt;
    if (!it->is_string()) return where + "." + key + " is not a string";
    out = it->get<std::string>();
    return std::nullopt;
}

// A percentage from another machine: outside 0-100 it is unknown, never shown.
std::optional<double> percent_of(const json& value) {
    if (!value.is_number()) return std::nullopt;
    const double percent = value.get<double>();
    return percent >= 0 && percent <= 100 ? std::optional<double>(percent) : std::nullopt;
}

Problem counters_of(const json& value, std::vector<DriverCounter>& out) {
    if (value.is_null()) return std::nullopt;
    if (!value.is_object()) return std::string("driver.counters is not an object");
    for (const auto& [label, count] : value.items()) {
        if (!count.is_number_integer() || count.get<std::int64_t>() < 0)
            return "driver.counters." + label + " is not a count";
        out.push_back({label, count.get<std::int64_t>()});
    }
    return std::nullopt;
}

Problem event_of(const json& value, DriverEvent& e) {
    if (!value.is_object()) return std::string("a driver event is not an object");
    const auto id = value.find("id");
    if (id == value.end() || !id->is_number_integer() || id->get<std::int64_t>() < 0 ||
        id->get<std::int64_t>() > INT64_C(0xffffffff))
        return std::string("a driver event has no id");
    e.id = static_cast<std::uint32_t>(id->get<std::int64_t>());
    std::optional<std::string> module, name, severity, scope, time, text;
    for (auto [key, slot] : {std::pair{"module", &module}, std::pair{"name", &name}, std::pair{"severity", &severity},
                             std::pair{"scope", &scope}, std::pair{"time", &time}, std::pair{"text", &text},
                             std::pair{"bus_id", &e.bus_id}, std::pair{"uuid", &e.uuid}})
        if (auto problem = text_of(value, key, *slot, "driver_events[]")) return problem;
    e.module = module.value_or(""), e.name = name.value_or(""), e.text = text.value_or("");
    if (severity) e.severity = event_severity_from_string(*severity);
    if (scope) e.scope = event_scope_from_string(*scope);
    const auto at = time ? parse_iso8601(*time) : std::nullopt;
    if (!at) return std::string("a driver event has no time");
    e.time_seconds = std::chrono::duration_cast<std::chrono::seconds>(at->time_since_epoch()).count();
    if (const auto pid = value.find("pid"); pid != value.end() && pid->is_number_integer())
        e.pid = pid->get<std::int64_t>();
    if (const auto gen = value.find("record_generation"); gen != value.end() && gen->is_number_integer())
        e.generation = gen->get<int>();
    return std::nullopt;
}

}  // namespace

json engines_json(const std::vector<EngineUtilization>& engines) {
    json out = json::object();
    for (const auto& engine : engines) out[engine.label] = percent_json(engine.percent);
    return out;
}

json status_json(const std::optional<DriverStatus>& status) {
    if (!status) return nullptr;
    json out;
    out["driver_status"] = or_null(status->driver_status);
    out["firmware_status"] = or_null(status->firmware_status);
    out["firmware_reason"] = or_null(status->firmware_reason);
    out["device_id"] = or_null(status->device_id);
    out["utilization_percent"] = percent_json(status->overall_utilization_percent);
    out["engine_utilization_percent"] = engines_json(status->engines);
    out["counters"] = json::object();
    for (const auto& counter : status->counters) out["counters"][counter.label] = counter.value;
    return out;
}

json events_json(const std::vector<DriverEvent>& events) {
    json out = json::array();
    for (const auto& e : events) {
        json event;
        event["id"] = e.id;
        event["xid"] = xid_text(e.id);
        event["module"] = e.module.empty() ? json(nullptr) : json(e.module);
        event["name"] = e.name.empty() ? json(nullptr) : json(e.name);
        event["severity"] = e.severity ? json(to_string(*e.severity)) : json(nullptr);
        event["scope"] = e.scope ? json(to_string(*e.scope)) : json(nullptr);
        event["time"] = format_iso8601(WallTime(std::chrono::seconds(e.time_seconds)));
        event["bus_id"] = or_null(e.bus_id);
        event["pid"] = or_null(e.pid);
        event["uuid"] = or_null(e.uuid);
        event["text"] = e.text;
        event["record_generation"] = e.generation;
        out.push_back(std::move(event));
    }
    return out;
}

json untied_json(const std::vector<UntiedDriverGpu>& untied) {
    json out = json::array();
    for (const auto& gpu : untied)
        out.push_back(json{{"directory", gpu.directory}, {"reason", gpu.reason}, {"status", status_json(gpu.status)}});
    return out;
}

Problem read_engines(const json& value, const char* key, std::vector<EngineUtilization>& out) {
    if (value.is_null()) return std::nullopt;
    if (!value.is_object()) return std::string(key) + " is not an object";
    for (const auto& [label, percent] : value.items()) {
        if (!percent.is_null() && !percent.is_number()) return std::string(key) + "." + label + " is not a number";
        out.push_back({label, percent_of(percent)});
    }
    return std::nullopt;
}

Problem read_status(const json& value, std::optional<DriverStatus>& out) {
    if (value.is_null()) return std::nullopt;
    if (!value.is_object()) return std::string("driver is not an object");
    DriverStatus status;
    for (auto [key, slot] :
         {std::pair{"driver_status", &status.driver_status}, std::pair{"firmware_status", &status.firmware_status},
          std::pair{"firmware_reason", &status.firmware_reason}, std::pair{"device_id", &status.device_id}})
        if (auto problem = text_of(value, key, *slot, "driver")) return problem;
    if (const auto util = value.find("utilization_percent"); util != value.end())
        status.overall_utilization_percent = percent_of(*util);
    if (const auto engines = value.find("engine_utilization_percent"); engines != value.end())
        if (auto problem = read_engines(*engines, "driver.engine_utilization_percent", status.engines)) return problem;
    if (const auto counters = value.find("counters"); counters != value.end())
        if (auto problem = counters_of(*counters, status.counters)) return problem;
    out = std::move(status);
    return std::nullopt;
}

Problem read_events(const json& value, std::optional<std::vector<DriverEvent>>& out) {
    if (value.is_null()) return std::nullopt;
    if (!value.is_array()) return std::string("driver_events is not a list");
    std::vector<DriverEvent> events;
    for (const auto& item : value) {
        DriverEvent event;
        if (auto problem = event_of(item, event)) return problem;
        events.push_back(std::move(event));
    }
    out = std::move(events);
    return std::nullopt;
}

Problem read_untied(const json& value, std::vector<UntiedDriverGpu>& out) {
    if (value.is_null()) return std::nullopt;
    if (!value.is_array()) return std::string("untied_driver_gpus is not a list");
    for (const auto& item : value) {
        if (!item.is_object()) return std::string("an untied driver GPU is not an object");
        UntiedDriverGpu gpu;
        std::optional<std::string> directory, reason;
        if (auto problem = text_of(item, "directory", directory, "untied_driver_gpus[]")) return problem;
        if (auto problem = text_of(item, "reason", reason, "untied_driver_gpus[]")) return problem;
        gpu.directory = directory.value_or(""), gpu.reason = reason.value_or("");
        if (const auto status = item.find("status"); status != item.end())
            if (auto problem = read_status(*status, gpu.status)) return problem;
        out.push_back(std::move(gpu));
    }
    return std::nullopt;
}

}  // namespace musatop::driver_json
