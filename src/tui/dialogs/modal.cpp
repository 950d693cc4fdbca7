#include "musatop/tui/dialogs/modal.hpp"

#include <algorithm>

#include "musatop/output/format.hpp"
#include "musatop/output/sanitize.hpp"
#include "musatop/tui/key_table.hpp"
#include "musatop/util/utf8.hpp"

namespace musatop::tui {

std::vector<std::string> help_lines() {
    std::vector<std::string> lines = key_help_lines();
    for (const char* note : {
             "",
             "UTIL and VRAM bars run from 0 to 100%; VRAM is used memory / total memory.",
             "Trends cover the last 5 minutes, oldest on the left, newest on the right.",
             "Each trend column is the peak of its time slice, not an average; Now labels are current.",
             "A closed time slice keeps its height while it moves left; resizing redraws from history.",
             "CPU/RAM and VRAM/UTIL graphs mirror around the 0% axis; the outer edges are 100%.",
             "ALL UTIL is the mean over the selected GPUs; ALL VRAM is their total used / total size.",
             "If any selected GPU lacks a value, ALL shows N/A for it; gaps are never filled in.",
             "Missing samples leave gaps; an observed 0% draws a baseline. Stale data is dim.",
             "Stale or unverified data cannot be terminated; the target is checked again (PID, start time,",
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

std::vector<std::string> process_detail_lines(const GpuProcess& p) {
    return {
        "PID: " + std::to_string(p.pid),
        "User: " + sanitize_or_na(p.username),
        "GPU: " + std::to_string(p.device_index) + "  UUID: " + sanitize_or_na(p.device_uuid),
        std::string("Status: ") + to_string(p.status) +
            "  Created: " + (p.create_time ? format_local_time(*p.create_time) : "N/A"),
        "GPU memory: " + format_bytes(p.gpu_memory_bytes),
        "CPU: " + format_number(p.cpu_percent, "%") + "  RSS: " + format_bytes(p.rss_bytes),
        "Running: " + format_duration(p.running_seconds),
        "Full command:",
        sanitize_or_na(p.command),
    };
}

std::vector<std::string> wrap_lines(const std::vector<std::string>& lines, int width) {
    width = std::max(1, width);
    std::vector<std::string> out;
    for (const auto& line : lines) {
        if (line.empty()) {
            out.emplace_back();
            continue;
        }
        std::string current;
        int current_width = 0;
        std::size_t pos = 0;
        while (pos < line.size()) {
            while (pos < line.size() && line[pos] == ' ') ++pos;
            const std::size_t end = std::min(line.find(' ', pos), line.size());
            std::string word = line.substr(pos, end - pos);
            pos = end;
            if (word.empty()) break;
            int word_width = display_width(word);
            if (current_width > 0 && current_width + 1 + word_width > width) {
                out.push_back(current);
                current.clear();
                current_width = 0;
            }
            // A word longer than a line is broken (current is empty here: it was flushed).
            while (word_width > width) {
                std::string head = truncate_to_width(word, width);
                if (head.empty()) {  // one glyph wider than the line: take it anyway
                    const auto cps = utf8::decode(word);
                    utf8::append(head, cps.front());
                }
                out.push_back(head);
                word = word.substr(head.size());
                word_width = display_width(word);
            }
            if (!word.empty()) {
                current += (current_width ? " " : "") + word;
                current_width += (current_width ? 1 : 0) + word_width;
            }
        }
        if (!current.empty() || out.empty()) out.push_back(current);
    }
    return out;
}

void draw_modal(Canvas& canvas, const ModalView& view, int& scroll) {
    const int height = canvas.height();
    canvas.put(0, 0, view.title, view.title_style);
    const auto lines = wrap_lines(view.lines, canvas.width() - 2);
    const int page = std::max(1, height - 3);
    const int total = static_cast<int>(lines.size());
    scroll = std::clamp(scroll, 0, std::max(0, total - page));
    for (int i = 0; i < page && scroll + i < total; ++i)
        canvas.put(1 + i, 1, lines[static_cast<std::size_t>(scroll + i)]);
    const int last = std::min(total, scroll + page);
    canvas.put(height - 2, 0,
               "Lines " + std::to_string(total ? scroll + 1 : 0) + "-" + std::to_string(last) + "/" +
                   std::to_string(total),
               Style{Color::none, 0, false, true});
    canvas.put(height - 1, 0, view.footer);
}

}  // namespace musatop::tui
