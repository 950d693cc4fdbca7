// (internal to the output layer) The driver's figures in the JSON document: the
// nested values appended to schema 1 (a device's "driver" and "driver_events", a
// process's "gpu_engine_utilization_percent", the root's "untied_driver_gpus"),
// written and read back by the same pair of functions so the two cannot drift.
// Reading checks types and ranges; a value of the wrong kind is the document's
// problem, worded as the snapshot reader words the others.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "musatop/model/snapshot.hpp"

namespace musatop::driver_json {

using json = nlohmann::ordered_json;

json status_json(const std::optional<DriverStatus>& status);
json events_json(const std::vector<DriverEvent>& events);
json engines_json(const std::vector<EngineUtilization>& engines);
json untied_json(const std::vector<UntiedDriverGpu>& untied);

// Each returns the problem, if any; `out` holds what was read before it.
std::optional<std::string> read_status(const json& value, std::optional<DriverStatus>& out);
std::optional<std::string> read_events(const json& value, std::optional<std::vector<DriverEvent>>& out);
std::optional<std::string> read_engines(const json& value, const char* key, std::vector<EngineUtilization>& out);
std::optional<std::string> read_untied(const json& value, std::vector<UntiedDriverGpu>& out);

}  // namespace musatop::driver_json
