#include "musatop/output/text_output.hpp"

#include "musatop/output/format.hpp"
#include "musatop/output/sanitize.hpp"

namespace musatop {
namespace {

const char* python_bool(bool value) { return value ? "True" : "False"; }

std::string python_time(const std::optional<WallTime>& time) { return time ? format_iso8601(*time) : "None"; }

// The STALE line's Python spellings (True, None) are the reference's; this says
// the same in words for a reader who does not know them.
std::string stale_in_words(const char* what, bool stale, const std::optional<WallTime>& last_good) {
    if (!stale) return std::string("the ") + what + " are current";
    if (!last_good) return std::string("the ") + what + " could not be read";
    return std::string("the ") + what + " are the last good ones, from " + format_iso8601(*last_good);
}

std::string power_text(const Device& d) {
    return format_number(d.power_draw_w, "W") + "/" + format_number(d.power_limit_w, "W");
}

// DRV: the driver's own overall utilisation, after the reference columns, on hosts
// whose driver has the status file.
std::string device_line(const Device& d, bool driver_column, const Paint& paint) {
    const std::string driver =
        driver_column
            ? "  " + pad_left(format_number(d.driver ? d.driver->overall_utilization_percent : std::nullopt, "%"), 5)
            : "";
    return paint(Ink::index, pad_right(std::to_string(d.index), 4)) + " " +
           paint(Ink::name, pad_right(sanitize_or_na(d.name), 20)) + " " +
           paint(Ink::util, pad_left(format_number(d.gpu_utilization_percent, "%"), 5)) + "  " +
           paint(Ink::memory, pad_left(format_bytes(d.memory_used_bytes), 8) + "/" +
                                  pad_right(format_bytes(d.memory_total_bytes), 8)) +
           "  " + paint(Ink::temperature, pad_left(format_number(d.temperature_c, "C"), 5)) + "  " +
           (driver_column ? pad_right(power_text(d), 13) + driver : power_text(d));
}

constexpr int kJobWidth = 12;

struct TextColumns {
    bool job = false;       // JOB: some row has an owner
    bool gpu_util = false;  // GPU%: --process-util
};

std::string process_line(const GpuProcess& p, const TextColumns& columns, const Paint& paint) {
    return paint(Ink::index, pad_right(std::to_string(p.device_index), 4)) + " " + pad_right(std::to_string(p.pid), 8) +
           " " + paint(Ink::user, pad_right(sanitize_or_na(p.username), 13)) + " " +
           paint(Ink::memory, pad_left(format_bytes(p.gpu_memory_bytes), 8)) + " " +
           (columns.gpu_util ? pad_left(format_number(p.gpu_utilization_percent), 5) + " " : "") +
           pad_left(format_number(p.cpu_percent), 6) + " " + pad_left(format_bytes(p.rss_bytes), 9) + " " +
           pad_left(format_duration(p.running_seconds), 10) + "  " +
           (columns.job ? fit_right(sanitize_or_na(job_label(p.attribution)), kJobWidth) + " " : "") +
           sanitize_or_na(p.command);
}

// Hosts without containers, jobs or systemd units have no owners to show: the
// column appears when a row has one, so the reference layout stays as it was.
bool any_owner(const std::vector<GpuProcess>& processes) {
    for (const auto& p : processes)
        if (job_label(p.attribution)) return true;
    return false;
}

}  // namespace

std::string render_text(const Snapshot& s, const Paint& paint) {
    std::string out;
    const auto line = [&out](const std::string& text) { out += text + "\n"; };
    line(paint(Ink::bold, "musatop | " + format_iso8601(s.sampled_at) + (s.is_demo() ? " | DEMO DATA" : "")));
    line("Driver: " + sanitize_or_na(s.driver_version) + "  GMI: " + sanitize_or_na(s.gmi_version) +
         "  MUSA Toolkit: " + sanitize_or_na(s.musa_version));
    line("Host: " + sanitize_or_na(s.host.hostname) + " CPU: " + format_number(s.host.cpu_percent, "%") +
         " RAM: " + format_bytes(s.host.memory_used_bytes) + "/" + format_bytes(s.host.memory_total_bytes));
    const bool driver_column = any_driver_status(s.devices);
    line(paint(Ink::bold, std::string("GPU  NAME                 UTIL   MEMORY (used/total)      TEMP   POWER/LIMIT") +
                              (driver_column ? "      DRV" : "")));
    for (const auto& device : s.devices) line(device_line(device, driver_column, paint));
    if (s.devices.empty()) line(s.devices_stale ? "Device data unavailable." : "No GPUs found.");
    const TextColumns columns{any_owner(s.processes), any_gpu_utilization(s.processes)};
    line(paint(Ink::bold, std::string("GPU  PID      USER          GPU MEM ") + (columns.gpu_util ? " GPU% " : "") +
                              "   CPU%    RSS       TIME       " + (columns.job ? "JOB          " : "") + "COMMAND"));
    for (const auto& process : s.processes) line(process_line(process, columns, paint));
    if (s.processes.empty()) line(s.processes_stale ? "Process data unavailable." : "No matching GPU processes.");
    for (const auto& finding : s.health) line(paint(Ink::warning, "HEALTH: " + sanitize(finding)));
    for (const auto& device : s.devices)
        for (const auto& finding : device.health)
            line(paint(Ink::warning, "HEALTH: GPU " + std::to_string(device.index) + ": " + sanitize(finding)));
    if (s.any_stale())
        line(paint(Ink::warning, "STALE:") + std::string(" devices=") + python_bool(s.devices_stale) + ", processes=" +
             python_bool(s.processes_stale) + "; last successful samples: " + python_time(s.devices_sampled_at) + ", " +
             python_time(s.processes_sampled_at));
    if (s.any_stale())
        line("NOTE: stale data: " + stale_in_words("GPU readings", s.devices_stale, s.devices_sampled_at) + "; " +
             stale_in_words("process rows", s.processes_stale, s.processes_sampled_at) + ".");
    if (s.is_demo()) line("NOTE: DEMO DATA: synthetic GPUs and processes from musatop --demo; no GPU was queried.");
    if (s.device_source_reason) line("NOTE: " + sanitize(*s.device_source_reason));
    if (s.processes_unverified_reason) line("NOTE: " + sanitize(*s.processes_unverified_reason));
    if (!s.musa_version && s.musa_version_reason) line("NOTE: MUSA Toolkit: " + sanitize(*s.musa_version_reason));
    std::string limited;
    for (const auto& device : s.devices)
        if (device.power_limit_reason) limited += (limited.empty() ? "" : ",") + std::to_string(device.index);
    if (!limited.empty())
        line("NOTE: GPU " + limited +
             " power limit unavailable from GMI; power draw is a separate reading. See power_limit_reason in --json.");
    for (const auto& error : s.errors) line(paint(Ink::error, "ERROR: " + sanitize(error)));
    return out;
}

}  // namespace musatop
