#include "musatop/output/source_log.hpp"

#include "musatop/output/sanitize.hpp"

namespace musatop {
namespace {

// The round's error for `source` ("devices: ..."), or a generic reason.
std::string reason_for(const Snapshot& snapshot, const std::string& source) {
    for (const auto& error : snapshot.errors)
        if (error.rfind(source + ": ", 0) == 0) return sanitize(error.substr(source.size() + 2));
    return snapshot.errors.empty() ? "no data" : sanitize(snapshot.errors.front());
}

void note(std::optional<bool>& was_failing, bool failing, const Snapshot& snapshot, const std::string& source,
          std::vector<std::string>& out) {
    if (!was_failing) {
        if (failing) out.push_back(source + " fail from the first round: " + reason_for(snapshot, source));
    } else if (failing && !*was_failing) {
        out.push_back(source + " failing: " + reason_for(snapshot, source));
    } else if (!failing && *was_failing) {
        out.push_back(source + " recovered");
    }
    was_failing = failing;
}

}  // namespace

std::vector<std::string> SourceStateLog::changes(const Snapshot& snapshot) {
    std::vector<std::string> out;
    note(devices_failing_, snapshot.devices_stale, snapshot, "devices", out);
    note(processes_failing_, snapshot.processes_stale, snapshot, "processes", out);
    return out;
}

}  // namespace musatop
