// The process block: title with sort and filters, column header, the rows.
#include <algorithm>
#include <string>

#include "musatop/output/format.hpp"
#include "musatop/output/sanitize.hpp"
#include "musatop/tui/screens/process_columns.hpp"
#include "musatop/tui/screens/screen_input.hpp"

namespace musatop::tui {
namespace {

std::string title_text(const ScreenInput& in) {
    const UiState& state = *in.state;
    std::string title = "Processes " + std::to_string(in.view->processes.size()) +
                        " | sort=" + to_string(state.filter.sort) + (state.filter.reverse ? " reversed" : "");
    std::string filters;
    if (state.current_user_only) filters = "current user";
    const auto add = [&filters](const std::string& text) { filters += (filters.empty() ? "" : ", ") + text; };
    if (state.filter.slurm_job) add("job=" + std::to_string(*state.filter.slurm_job));
    if (state.filter.container_prefix) add("container=" + sanitize(*state.filter.container_prefix));
    if (!state.filter.search.empty()) add("search=" + sanitize(state.filter.search));
    return filters.empty() ? title : title + " | " + filters;
}

constexpr int kJobWidth = 12;

// "▲3 ▼12 more" at the right of the column header when rows are hidden above or
// below the page (short enough for the full header at 80 columns); empty when
// every row is shown.
std::string hidden_rows_text(int above, int below, bool ascii) {
    std::string text;
    if (above > 0) text += (ascii ? "^" : "\u25B2") + std::to_string(above);
    if (below > 0) text += (text.empty() ? "" : " ") + std::string(ascii ? "v" : "\u25BC") + std::to_string(below);
    return text.empty() ? text : text + " more";
}

std::string row_text(const GpuProcess& p, const ProcessColumns& columns) {
    std::string text = " " + pad_left(std::to_string(p.device_index), 3) + " " + pad_left(std::to_string(p.pid), 7) +
                       " " + fit_right(sanitize_or_na(p.username), 10) + " " +
                       pad_left(format_bytes(p.gpu_memory_bytes), 9) + " ";
    if (columns.gpu_util) text += pad_left(format_number(p.gpu_utilization_percent), 5) + " ";
    if (!columns.compact)
        text += pad_left(format_number(p.cpu_percent), 6) + " " + pad_left(format_bytes(p.rss_bytes), 8) + " " +
                pad_left(format_duration(p.running_seconds), 8) + " ";
    if (columns.job) text += fit_right(sanitize_or_na(job_label(p.attribution)), kJobWidth) + " ";
    return text + sanitize_or_na(p.command);
}

}  // namespace

void draw_process_block(Canvas& canvas, int top, const ScreenInput& in, const ScreenGeometry& g) {
    const ProcessColumns columns = process_columns(g);
    canvas.put(top, 0, title_text(in), kBold);
    const std::string header = process_header(columns);
    canvas.put(top + 1, 0, header, Style{Color::none, 0, false, false, false, true});
    const auto& rows = in.view->processes;
    if (rows.empty()) {
        const char* message =
            in.unfiltered->processes.empty()
                ? (in.unfiltered->processes_stale ? "Process data unavailable." : "No GPU processes running.")
                : "No GPU processes match the selected filters.";
        canvas.put(top + 2, 0, message);
        return;
    }
    const UiState& state = *in.state;
    const int count = static_cast<int>(rows.size());
    const int offset = std::clamp(state.process_offset, 0, std::max(0, count - g.process_page_size));
    const std::string hidden = hidden_rows_text(offset, std::max(0, count - offset - g.process_page_size), in.ascii);
    const int hidden_width = display_width(hidden);
    if (!hidden.empty() && display_width(header) + 2 + hidden_width < canvas.width())  // the last column stays free
        canvas.put(top + 1, canvas.width() - 1 - hidden_width, hidden,
                   Style{Color::none, 0, false, false, false, true});
    const bool stale = in.unfiltered->processes_stale;
    for (int i = 0; i < g.process_page_size && offset + i < count; ++i) {
        const int index = offset + i;
        const int row = top + 2 + i;
        Style style = Style{}.with_dim(stale);
        style.reverse = index == state.selection;
        canvas.put(row, 0, row_text(rows[static_cast<std::size_t>(index)], columns), style);
        if (style.reverse) canvas.set_style(row, 0, canvas.width() - 1, style);
    }
}

}  // namespace musatop::tui
