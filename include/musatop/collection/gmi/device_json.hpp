// Parser for `mthreads-gmi -q --json`.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "musatop/model/snapshot.hpp"
#include "musatop/util/result.hpp"

namespace musatop::gmi {

struct DeviceQuery {
    std::vector<Device> devices;
    std::optional<std::string> driver_version;
    // "Attached GPUs"; larger than devices.size() when GMI lists fewer cards than
    // it counts (accepted: the health rules report the lost card).
    std::optional<std::int64_t> attached_gpus;
};

// Errors are prefixed "invalid GMI JSON: " as the reference tool prints them.
Result<DeviceQuery> parse_device_json(std::string_view text);

}  // namespace musatop::gmi
