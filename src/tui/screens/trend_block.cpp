// The trend panels: host CPU up / RAM down (from 80 columns) and the GPU panel,
// VRAM up / UTIL down, for ALL or one GPU (g / G).
#include <string>
#include <vector>

#include "musatop/model/history.hpp"
#include "musatop/model/trend_projection.hpp"
#include "musatop/output/format.hpp"
#include "musatop/output/sanitize.hpp"
#include "musatop/tui/controller.hpp"
#include "musatop/tui/screens/screen_input.hpp"
#include "musatop/tui/widgets/area_graph.hpp"
#include "musatop/tui/widgets/trend_frame.hpp"

namespace musatop::tui {
namespace {

struct Panel {
    std::string upper_label;
    std::string lower_label;
    std::optional<double> upper_now;
    std::optional<double> lower_now;
    const Series* series = nullptr;
    Color upper_color;
    Color lower_color;
    bool stale = false;
    TrendMetric upper_metric = TrendMetric::memory;
    TrendMetric lower_metric = TrendMetric::util;
};

// " ▲ CPU now 30% ": the arrow says which way the graph grows from the 0% axis.
std::string label_text(const std::string& name, std::optional<double> now, bool stale, bool upper, bool ascii) {
    const char* arrow = upper ? (ascii ? "^" : "▲") : (ascii ? "v" : "▼");
    return " " + std::string(arrow) + " " + name + " now " + format_number(now, "%") + (stale ? " STALE" : "") + " ";
}

Panel host_panel(const ScreenInput& in) {
    const HostMetrics& host = in.unfiltered->host;
    return Panel{"CPU",
                 "RAM",
                 host.cpu_percent,
                 occupancy_percent(host.memory_used_bytes, host.memory_total_bytes),
                 in.history ? in.history->host() : nullptr,
                 Color::cpu,
                 Color::ram,
                 false,
                 TrendMetric::util,
                 TrendMetric::memory};
}

Panel gpu_panel(const ScreenInput& in) {
    Panel panel{"",      "UTIL",      std::nullopt, std::nullopt,
                nullptr, Color::vram, Color::util,  in.unfiltered->devices_stale};
    const auto& devices = in.view->devices;
    const Device* target = nullptr;
    for (const auto& d : devices)
        if (in.state->trend_target && trend_identity(d) == *in.state->trend_target) target = &d;
    if (target) {
        panel.upper_label = "GPU " + std::to_string(target->index) + " VRAM";
        panel.upper_now = occupancy_percent(target->memory_used_bytes, target->memory_total_bytes);
        panel.lower_now = valid_percent(target->gpu_utilization_percent);
        const auto key = gpu_history_key(*target);
        panel.series = (in.history && key) ? in.history->gpu(*key) : nullptr;
    } else {
        std::vector<const Device*> visible;
        for (const auto& d : devices) visible.push_back(&d);
        const AggregateValues now = aggregate_values(visible);
        panel.upper_label = "ALL " + std::to_string(devices.size()) + " VRAM";
        panel.upper_now = now.memory_percent;
        panel.lower_now = now.util_percent;
        panel.series = in.history ? in.history->aggregate() : nullptr;
    }
    return panel;
}

void draw_graph(Canvas& canvas, int top, int col, int width, const std::vector<std::string>& rows, Style style) {
    for (std::size_t r = 0; r < rows.size(); ++r) {
        canvas.put(top + static_cast<int>(r), col, rows[r], style);
        canvas.set_style(top + static_cast<int>(r), col, width, style);
    }
}

}  // namespace

void draw_trend_block(Canvas& canvas, int top, const ScreenInput& in, const Layout& layout) {
    if (layout.trend_height == 0) return;
    std::vector<Panel> panels;
    if (layout.host_panel) panels.push_back(host_panel(in));
    panels.push_back(gpu_panel(in));
    const auto widths = trend_panel_widths(canvas.width(), static_cast<int>(panels.size()));
    const int hh = layout.half_height;

    std::vector<std::string> upper_labels;
    std::vector<std::string> lower_labels;
    for (std::size_t i = 0; i < panels.size(); ++i) {
        const Panel& p = panels[i];
        upper_labels.push_back((i == 0 ? " Trend" : "") +
                               label_text(p.upper_label, p.upper_now, p.stale, true, in.ascii));
        std::string lower = label_text(p.lower_label, p.lower_now, p.stale, false, in.ascii);
        if (i == 0) lower = lower.substr(0, lower.size() - 1) + " | 5 min peaks ";
        lower_labels.push_back(lower);
    }
    const int axis = top + hh + 1;
    const int bottom = top + 2 * hh + 2;
    canvas.put(top, 0, frame_row(FrameRow::top, widths, in.ascii, upper_labels));
    for (int r = top + 1; r < bottom; ++r)
        if (r != axis) canvas.put(r, 0, frame_row(FrameRow::graph, widths, in.ascii));
    canvas.put(axis, 0, frame_row(FrameRow::axis, widths, in.ascii), kDim);
    canvas.put(bottom, 0, frame_row(FrameRow::bottom, widths, in.ascii, lower_labels));

    int col = 1;
    for (std::size_t i = 0; i < panels.size(); ++i) {
        const Panel& p = panels[i];
        const int width = widths[i];
        const int samples = in.ascii ? width : 2 * width;
        const auto upper = project_trend(p.series, p.upper_metric, samples, in.now_second);
        const auto lower = project_trend(p.series, p.lower_metric, samples, in.now_second);
        draw_graph(canvas, top + 1, col, width, area_rows(upper, hh, false, in.ascii),
                   Style{p.upper_color}.with_dim(p.stale));
        draw_graph(canvas, axis + 1, col, width, area_rows(lower, hh, true, in.ascii),
                   Style{p.lower_color}.with_dim(p.stale));
        const int label_width = std::min<int>(width, display_width(upper_labels[i]));
        canvas.set_style(top, col, label_width, Style{p.upper_color, 0, true}.with_dim(p.stale));
        canvas.set_style(bottom, col, std::min<int>(width, display_width(lower_labels[i])),
                         Style{p.lower_color, 0, true}.with_dim(p.stale));
        col += width + 1;
    }
}

}  // namespace musatop::tui
