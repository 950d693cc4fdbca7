#include "musatop/model/driver_info.hpp"

#include <array>
#include <cstdio>

namespace musatop {
namespace {

constexpr std::array<EventSeverity, 3> kSeverities = {EventSeverity::notify, EventSeverity::warning,
                                                      EventSeverity::fatal};
constexpr std::array<EventScope, 4> kScopes = {EventScope::process, EventScope::gpu, EventScope::host,
                                               EventScope::system};

}  // namespace

const char* to_string(EventSeverity severity) {
    switch (severity) {
        case EventSeverity::notify: return "notify";
        case EventSeverity::warning: return "warning";
        case EventSeverity::fatal: return "fatal";
    }
    return "notify";
}

const char* to_string(EventScope scope) {
    switch (scope) {
        case EventScope::process: return "process";
        case EventScope::gpu: return "gpu";
        case EventScope::host: return "host";
        case EventScope::system: return "system";
    }
    return "gpu";
}

std::optional<EventSeverity> event_severity_from_string(std::string_view text) {
    for (auto severity : kSeverities)
        if (text == to_string(severity)) return severity;
    return std::nullopt;
}

std::optional<EventScope> event_scope_from_string(std::string_view text) {
    for (auto scope : kScopes)
        if (text == to_string(scope)) return scope;
    return std::nullopt;
}

bool same_event(const DriverEvent& a, const DriverEvent& b) {
    return a.uuid == b.uuid && a.id == b.id && a.pid == b.pid && a.time_seconds == b.time_seconds;
}

std::string xid_text(std::uint32_t id) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%08x", static_cast<unsigned>(id));
    return text;
}

std::string event_label(const DriverEvent& event) {
    std::string label = xid_text(event.id);
    if (!event.module.empty()) label += " " + event.module;
    if (!event.name.empty()) label += " " + event.name;
    return label;
}

}  // namespace musatop
