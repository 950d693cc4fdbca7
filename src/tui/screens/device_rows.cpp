// Row 3 and the device page: index, name, UTIL and VRAM bars, memory, temperature,
// power draw/limit.
#include <algorithm>
#include <string>

#include "musatop/model/history.hpp"
#include "musatop/output/format.hpp"
#include "musatop/output/sanitize.hpp"
#include "musatop/tui/screens/screen_input.hpp"
#include "musatop/tui/widgets/bar.hpp"

namespace musatop::tui {
namespace {

constexpr int kGradientColors = 10;  // the curses adapter folds these onto its palette

// A bar and its label; returns the column after the trailing space.
int draw_bar(Canvas& canvas, int row, int col, std::optional<double> percent, const ScreenInput& in, int width,
             bool stale) {
    const std::string bar = render_bar(percent, width, in.ascii);
    const bool known = bar_value_known(percent);
    canvas.put(row, col, bar);
    for (int i = 0; i < width; ++i) {
        Style style = known
                          ? Style{Color::gradient, static_cast<std::uint8_t>(gradient_index(i, width, kGradientColors))}
                          : Style{Color::unknown, 0, false, true};
        canvas.set_style(row, col + i, 1, style.with_dim(stale));
    }
    canvas.put(row, col + width + 1, percent_label(percent), Style{}.with_dim(stale));
    return col + width + 6;
}

std::string header_text(const Layout& l) {
    std::string text = "GPU ";
    if (l.name_width) text += pad_right("NAME", l.name_width) + " ";
    text += pad_right("UTIL", l.bar_width + 5) + " " + pad_right("VRAM", l.bar_width + 5) + " ";
    text += pad_left("USED/TOTAL", l.memory_width) + " " + pad_right("TEMP", 4) + " " + pad_left("POWER W", 9);
    return l.driver_column ? text + pad_left("DRV%", 6) : text;
}

}  // namespace

int draw_device_rows(Canvas& canvas, const ScreenInput& in, const ScreenGeometry& g) {
    const Layout& l = g.layout;
    const Snapshot& view = *in.view;
    const bool stale = in.unfiltered->devices_stale;
    canvas.put(3, 0, header_text(l), kBold);
    if (view.devices.empty()) {
        const char* message = in.unfiltered->devices.empty() ? (stale ? "GPU data unavailable." : "No GPUs found.")
                                                             : "No GPUs match the selected filters.";
        canvas.put(4, 0, message);
        return 1;
    }
    int row = 4;
    const int end = std::min(static_cast<int>(view.devices.size()), g.device_offset + l.device_page_size);
    for (int i = g.device_offset; i < end; ++i, ++row) {
        const Device& d = view.devices[static_cast<std::size_t>(i)];
        std::string prefix = pad_left(std::to_string(d.index), 3);
        int col = canvas.put(row, 0, prefix, Style{}.with_dim(stale));
        // "!" marks health findings (i shows them); the space is kept otherwise.
        col = canvas.put(row, col, d.health.empty() ? " " : "!", d.health.empty() ? Style{} : kBold);
        if (l.name_width)
            col = canvas.put(row, col, fit_right(sanitize_or_na(d.name), l.name_width) + " ", Style{}.with_dim(stale));
        col = draw_bar(canvas, row, col, d.gpu_utilization_percent, in, l.bar_width, stale);
        col = draw_bar(canvas, row, col, occupancy_percent(d.memory_used_bytes, d.memory_total_bytes), in, l.bar_width,
                       stale);
        const std::string tail =
            pad_left(format_used_total(d.memory_used_bytes, d.memory_total_bytes), l.memory_width) + " " +
            pad_left(format_number(d.temperature_c, "C"), 4) + " " +
            pad_left(format_number(d.power_draw_w) + "/" + format_number(d.power_limit_w), 9) +
            (l.driver_column
                 ? pad_left(format_number(d.driver ? d.driver->overall_utilization_percent : std::nullopt, "%"), 6)
                 : "");
        canvas.put(row, col, tail, Style{}.with_dim(stale));
    }
    return end - g.device_offset;
}

}  // namespace musatop::tui
