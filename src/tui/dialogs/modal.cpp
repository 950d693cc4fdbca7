#include "musatop/tui/dialogs/modal.hpp"

#include <algorithm>
#include <cstdio>

#include "musatop/output/format.hpp"
#include "musatop/output/sanitize.hpp"
#include "musatop/tui/key_table.hpp"
#include "musatop/util/utf8.hpp"

namespace musatop::tui {

std::vector<std::string> help_lines(bool replay) {
    std::vector<std::string> lines = key_help_lines(replay);
    for (const char* note : {
             "",
             "UTIL and VRAM bars run from 0 to 100%; VRAM is used memory / total memory.",
             "Trends cover the last 5 minutes, oldest on the left, newest on the right.",
             "Each trend column is the peak of its time slice, not an average; the titles' \"now\" values are "
             "current.",
             "A closed time slice keeps its height while it moves left; resizing redraws from history.",
             "CPU/RAM and VRAM/UTIL graphs mirror around the 0% axis; the outer edges are 100%.",
             "ALL UTIL is the mean over the selected GPUs; ALL VRAM is their total used / total size.",
             "If any selected GPU lacks a value, ALL shows N/A for it; gaps are never filled in.",
             "Missing samples leave gaps; an observed 0% draws a baseline. Stale data is dim.",
             "Stale or unverified data cannot be terminated; the target is checked again (PID, start time, "
             "GPU) right before the signal is sent.",
             "N/A means unknown: musatop never shows a missing value as zero.",
             "Power limit N/A: GMI gave no usable current limit; the power draw is a separate reading.",
             "musatop never substitutes a default cap, another GPU's cap, or zero for a missing limit.",
             "--json reports power_limit_reason and where the Toolkit version came from.",
             "--ascii draws with plain ASCII; --no-color or NO_COLOR turns colours off.",
         })
        lines.emplace_back(note);
    return lines;
}

std::string dialog_command(const std::optional<std::string>& command) {
    if (!command) return "N/A";
    if (command->size() <= kDialogCommandBytes) return sanitize(*command);
    std::size_t cut = kDialogCommandBytes;
    while (cut > 0 && (static_cast<unsigned char>((*command)[cut]) & 0xC0) == 0x80) --cut;  // a whole UTF-8 sequence
    return sanitize(std::string_view(*command).substr(0, cut)) + " [... cut at 64 KiB of " +
           std::to_string(command->size()) + " bytes]";
}

namespace {

std::string count_text(const std::optional<std::int64_t>& value) { return value ? std::to_string(*value) : "N/A"; }

std::string of_max(const std::optional<std::int64_t>& current, const std::optional<std::int64_t>& max,
                   const std::string& prefix) {
    return prefix + count_text(current) + " of " + prefix + count_text(max);
}

std::string owner_line(const Attribution& a) {
    std::string line = "Slurm job: " + (a.slurm_job_id ? std::to_string(*a.slurm_job_id) : std::string("N/A"));
    if (a.slurm_step) line += "  step: " + sanitize(*a.slurm_step);
    return line;
}

}  // namespace

std::string event_line(const DriverEvent& e) {
    std::string line = format_local_seconds(WallTime(std::chrono::seconds(e.time_seconds))) + " " + event_label(e);
    if (e.severity) line += std::string(" ") + to_string(*e.severity);
    if (e.pid) line += " PID " + std::to_string(*e.pid);
    return sanitize(e.text.empty() ? line : line + ": " + e.text);
}

// What the kernel driver says of the GPU, beside GMI's figures and never in place
// of them; its labels as the file writes them (sanitised: they come from outside).
std::vector<std::string> driver_status_lines(const Device& d) {
    if (!d.driver) {
        const std::string why = d.driver_reason ? *d.driver_reason : "no /proc/driver/musa status tied to this GPU";
        return {"Driver: N/A (" + sanitize(why) + ")"};
    }
    const DriverStatus& s = *d.driver;
    std::string firmware = sanitize_or_na(s.firmware_status);
    if (s.firmware_reason) firmware += " (" + sanitize(*s.firmware_reason) + ")";
    const std::string engines = format_engines(s.engines);
    std::string counters;
    for (const auto& counter : s.counters)
        counters += (counters.empty() ? "" : ", ") + sanitize(counter.label) + " " + std::to_string(counter.value);
    return {"Driver: status " + sanitize_or_na(s.driver_status) + "  firmware " + firmware,
            "Driver utilisation: " + format_number(s.overall_utilization_percent, "%") +
                (engines.empty() ? "" : " (" + engines + ")"),
            "Driver counters: " + (counters.empty() ? std::string("N/A") : counters)};
}

std::vector<std::string> driver_lines(const Device& d) {
    std::vector<std::string> lines = driver_status_lines(d);
    if (!d.driver && !d.driver_events_reason && !d.driver_events) return lines;
    const std::vector<DriverEvent> none;
    const auto& events = d.driver_events ? *d.driver_events : none;
    const std::string count = !d.driver_events ? "N/A (" + sanitize(d.driver_events_reason.value_or("not read")) + ")"
                              : events.empty() ? std::string("none in its ring")
                                               : std::to_string(events.size()) + ", newest first";
    lines.push_back("Driver events: " + count);
    constexpr std::size_t kShownEvents = 5;
    for (std::size_t i = 0; i < std::min(kShownEvents, events.size()); ++i)
        lines.push_back("  " + event_line(events[events.size() - 1 - i]));
    return lines;
}

std::vector<std::string> gpu_detail_lines(const Device& d) {
    std::vector<std::string> lines = {
        "GPU " + std::to_string(d.index) + "  " + sanitize_or_na(d.name) +
            (d.health.empty() ? "" : "  ! " + std::to_string(d.health.size()) + " finding(s)"),
        "UUID: " + sanitize_or_na(d.uuid) + "  Serial: " + sanitize_or_na(d.serial_number) +
            "  MTBios: " + sanitize_or_na(d.bios_version),
        "Bus: " + sanitize_or_na(d.bus_id) +
            "  PCIe: " + of_max(d.pcie_generation_current, d.pcie_generation_max, "gen ") + ", " +
            of_max(d.pcie_link_width_current, d.pcie_link_width_max, "x"),
        "Utilisation: " + format_number(d.gpu_utilization_percent, "%") +
            "  memory controller: " + format_number(d.memory_utilization_percent, "%") +
            "  encoder: " + format_number(d.encoder_utilization_percent, "%") +
            "  decoder: " + format_number(d.decoder_utilization_percent, "%"),
        "Memory: " + format_used_total(d.memory_used_bytes, d.memory_total_bytes) + "  Temperature: " +
            format_number(d.temperature_c, "C") + "  Fan: " + format_number(d.fan_speed_percent, "%"),
        "Power: " + format_number(d.power_draw_w, "W") + " of " + format_number(d.power_limit_w, "W") +
            "  Performance state: " + sanitize_or_na(d.performance_state),
        "Clocks: graphics " + format_number(d.graphics_clock_mhz) + " of " + format_number(d.graphics_clock_max_mhz) +
            " MHz, memory " + format_number(d.memory_clock_mhz) + " of " + format_number(d.memory_clock_max_mhz) +
            " MHz",
        "ECC: " + sanitize_or_na(d.ecc_mode) + "  Retired pages: single-bit " + count_text(d.retired_pages_single_bit) +
            ", double-bit " + count_text(d.retired_pages_double_bit) + ", pending " +
            (d.retired_pages_pending ? (*d.retired_pages_pending ? "yes" : "no") : "N/A"),
    };
    for (auto& line : driver_lines(d)) lines.push_back(std::move(line));
    if (d.health.empty()) lines.emplace_back("Health: no findings");
    for (const auto& finding : d.health) lines.push_back("! " + sanitize(finding));
    return lines;
}

// The driver's figures for the process (proc_util, --process-util); none when not asked.
std::vector<std::string> process_util_lines(const GpuProcess& p) {
    if (!p.gpu_utilization_percent && !p.gpu_utilization_reason) return {};
    std::string line = "GPU utilisation (driver): " + format_number(p.gpu_utilization_percent, "%");
    if (p.gpu_utilization_reason) line += " (" + sanitize(*p.gpu_utilization_reason) + ")";
    const std::string engines = format_engines(p.gpu_engine_utilization);
    if (engines.empty()) return {line};
    return {line, "  engines: " + engines};
}

std::vector<std::string> process_detail_lines(const GpuProcess& p) {
    const Attribution& a = p.attribution;
    std::vector<std::string> lines = {
        "PID: " + std::to_string(p.pid),
        "User: " + sanitize_or_na(p.username),
        "GPU: " + std::to_string(p.device_index) + "  UUID: " + sanitize_or_na(p.device_uuid),
        std::string("Status: ") + to_string(p.status) +
            "  Created: " + (p.create_time ? format_local_time(*p.create_time) : "N/A"),
        "GPU memory: " + format_bytes(p.gpu_memory_bytes),
    };
    for (auto& line : process_util_lines(p)) lines.push_back(std::move(line));
    const std::vector<std::string> rest = {
        "CPU: " + format_number(p.cpu_percent, "%") + "  RSS: " + format_bytes(p.rss_bytes),
        "Running: " + format_duration(p.running_seconds),
        owner_line(a),
        "Container: " + sanitize_or_na(a.container_id) + "  runtime: " + sanitize_or_na(a.container_runtime),
        "Pod: " + sanitize_or_na(a.pod_uid) + "  QoS: " + sanitize_or_na(a.pod_qos_class),
        "Unit: " + sanitize_or_na(a.systemd_unit),
        "Full command:",
        dialog_command(p.command),
    };
    lines.insert(lines.end(), rest.begin(), rest.end());
    return lines;
}

std::vector<std::string> wrap_lines(const std::vector<std::string>& lines, int width, int hanging) {
    width = std::max(1, width);
    hanging = std::clamp(hanging, 0, width / 2);
    std::vector<std::string> out;
    for (const auto& line : lines) {
        if (line.empty()) {
            out.emplace_back();
            continue;
        }
        // Decoded once: each code point is looked at a fixed number of times, so a
        // 128 KB single-word command line wraps in linear time.
        const std::vector<char32_t> cps = utf8::decode(line);
        const std::size_t n = cps.size();
        std::string current;
        int current_width = 0;
        // Continuation lines start `hanging` cells in, under the text they continue.
        bool has_word = false;
        const auto next_line = [&] {
            out.push_back(std::move(current));
            current.assign(static_cast<std::size_t>(hanging), ' ');
            current_width = hanging;
            has_word = false;
        };
        std::size_t i = 0;
        while (i < n) {
            while (i < n && cps[i] == U' ') ++i;
            if (i == n) break;
            std::size_t end = i;
            int word_width = 0;
            while (end < n && cps[end] != U' ') word_width += code_point_width(cps[end++]);
            if (has_word && current_width + 1 + word_width > width) next_line();
            if (word_width > width - current_width) {
                // A word longer than a line is broken (no word is on the line yet); its
                // last piece stays open for the words after it. A glyph wider than
                // the whole line is taken anyway.
                for (std::size_t k = i; k < end; ++k) {
                    const int w = code_point_width(cps[k]);
                    if (has_word && current_width + w > width) next_line();
                    utf8::append(current, cps[k]);
                    current_width += w;
                    has_word = true;
                }
            } else {
                if (has_word) {
                    current += ' ';
                    ++current_width;
                }
                for (std::size_t k = i; k < end; ++k) utf8::append(current, cps[k]);
                current_width += word_width;
                has_word = true;
            }
            i = end;
        }
        if (!current.empty() || out.empty()) out.push_back(std::move(current));
    }
    return out;
}

void draw_modal(Canvas& canvas, const ModalView& view, int& scroll) {
    const int height = canvas.height();
    canvas.put(0, 0, view.title, view.title_style);
    const auto lines = wrap_lines(view.lines, canvas.width() - 2, view.hanging_indent);
    const int page = std::max(1, height - 3);
    const int total = static_cast<int>(lines.size());
    scroll = std::clamp(scroll, 0, std::max(0, total - page));
    for (int i = 0; i < page && scroll + i < total; ++i)
        canvas.put(1 + i, 1, lines[static_cast<std::size_t>(scroll + i)]);
    const int last = std::min(total, scroll + page);
    canvas.put(
        height - 2, 0,
        "Lines " + std::to_string(total ? scroll + 1 : 0) + "-" + std::to_string(last) + "/" + std::to_string(total),
        Style{Color::none, 0, false, true});
    canvas.put(height - 1, 0, view.footer);
}

}  // namespace musatop::tui
