// What the MUSA kernel driver says about a GPU in /proc/driver/musa/gpuNN/
// (../shared/spec/musa-driver-files.md): its `status` text, the events of its
// `event_report` ring and the per-process utilisation of `proc_util`. Every value
// the file does not give stays unknown; labels are kept as the file spells them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace musatop {

// One "<label> Utilisation: N%" line of `status`, label as written ("GEOM", "COMP").
struct EngineUtilization {
    std::string label;
    std::optional<double> percent;
    bool operator==(const EngineUtilization&) const = default;
};

// One "<label> Event Count: N" or "... Error Count: N" line ("Server Errors" too).
struct DriverCounter {
    std::string label;  // "Server Errors", "HWR", "CRR", "SLR", "WGP", "TRP", "FWF", "APM", or a new one
    std::int64_t value = 0;
    bool operator==(const DriverCounter&) const = default;
};

struct DriverStatus {
    std::optional<std::string> driver_status;    // "OK", "BAD", "UNDEFINED", "UNKNOWN (7)"
    std::optional<std::string> firmware_status;  // "OK", "NOT RESPONDING", "DEAD", "FAULT", ...
    std::optional<std::string> firmware_reason;  // "Asserted", "Poll failing", ...; none when the file gives none
    std::optional<std::string> device_id;        // "0:0"
    std::vector<DriverCounter> counters;         // in file order
    std::optional<double> overall_utilization_percent;  // "GPU Overall Utilisation" (G1: "GPU Utilisation")
    std::vector<EngineUtilization> engines;             // in file order
    bool operator==(const DriverStatus&) const = default;
};

struct UntiedDriverGpu {
    std::string directory;  // "gpu01"
    std::string reason;     // why it is tied to no GPU
    std::optional<DriverStatus> status;
    bool operator==(const UntiedDriverGpu&) const = default;
};

enum class EventSeverity { notify, warning, fatal };
enum class EventScope { process, gpu, host, system };

// One record of `event_report`: gen1 (128-byte) or gen2 (256-byte, XID).
struct DriverEvent {
    int generation = 2;
    std::uint32_t id = 0;                   // gen2: the XID, (module << 24) | code; gen1: error_id
    std::string module;                     // "MSS", "PCIE", ...; "" when the table does not know it
    std::string name;                       // "NEW_PAGE_RETIRED", ...; "" when unknown (the id is kept)
    std::optional<EventSeverity> severity;  // gen2 only
    std::optional<EventScope> scope;        // gen2 only
    std::int64_t time_seconds = 0;          // since the epoch
    std::optional<std::string> bus_id;      // "0000:18:00.0"; none for device-less events
    std::optional<std::int64_t> pid;        // gen2, when an owning process was recorded
    std::optional<std::string> uuid;        // gen2: the 16 bytes as 8-4-4-4-12 hex
    std::string text;                       // as recorded (NULs and the trailing newline trimmed); not sanitised
    bool operator==(const DriverEvent&) const = default;
};

// The events of one id and severity a GPU's ring has shown since musatop started:
// what /metrics exports as musatop_gpu_xid_events_total and _last_timestamp_seconds,
// kept after the ring has wrapped or been cleared.
struct EventTotal {
    std::uint32_t id = 0;
    std::optional<EventSeverity> severity;
    std::uint64_t count = 0;
    std::int64_t last_time_seconds = 0;
    bool operator==(const EventTotal&) const = default;
};

// The same event read twice (rings are read whole each round): uuid, id, PID, time.
bool same_event(const DriverEvent& a, const DriverEvent& b);

// "notify", "warning", "fatal"; "process", "gpu", "host", "system": the words of
// --json, /metrics and the screens.
const char* to_string(EventSeverity severity);
const char* to_string(EventScope scope);
std::optional<EventSeverity> event_severity_from_string(std::string_view text);
std::optional<EventScope> event_scope_from_string(std::string_view text);

// "0x05000002": an event id as the spec's table and the XID label write it.
std::string xid_text(std::uint32_t id);

// "0x05000002 MTBIOS GPU_BIOS_TRAP": the id with its module and name when known.
// Not sanitised: the caller's output does that.
std::string event_label(const DriverEvent& event);

// One row of `proc_util`: utilisation per process, total and per engine.
struct ProcessUtilization {
    std::int64_t pid = 0;   // the host PID
    std::int64_t vpid = 0;  // the PID in the reader's namespace
    std::optional<double> total_percent;
    std::vector<EngineUtilization> engines;  // as the header names them ("2D", "CMP", "TRANSFER", ...)
    std::string name;                        // comm; may hold spaces, "(null)" or nothing
    bool operator==(const ProcessUtilization&) const = default;
};

}  // namespace musatop
