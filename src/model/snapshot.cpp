#include "musatop/model/snapshot.hpp"

namespace musatop {

const char* to_string(ProcessStatus status) {
    switch (status) {
        case ProcessStatus::ok: return "ok";
        case ProcessStatus::access_denied: return "access_denied";
        case ProcessStatus::exited: return "exited";
        case ProcessStatus::unverified: return "unverified";
    }
    return "unverified";
}

const char* to_string(DeviceSource source) {
    switch (source) {
        case DeviceSource::none: return "none";
        case DeviceSource::gmi_json: return "gmi-json";
        case DeviceSource::gmi_summary: return "gmi-summary";
        case DeviceSource::demo: return "demo";
    }
    return "none";
}

bool any_gpu_utilization(const std::vector<GpuProcess>& processes) {
    for (const auto& p : processes)
        if (p.gpu_utilization_percent || p.gpu_utilization_reason) return true;
    return false;
}

bool any_driver_status(const std::vector<Device>& devices) {
    for (const auto& d : devices)
        if (d.driver) return true;
    return false;
}

}  // namespace musatop
