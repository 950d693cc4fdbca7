#include "musatop/tui/screens/main_screen.hpp"

#include <algorithm>

#include "musatop/output/format.hpp"
#include "musatop/output/sanitize.hpp"
#include "musatop/tui/controller.hpp"
#include "musatop/tui/dialogs/modal.hpp"
#include "musatop/tui/key_table.hpp"

namespace musatop::tui {
namespace {

void draw_waiting(Canvas& canvas, const ScreenInput& in) {
    canvas.put(0, 0, in.title + " | Waiting for the first sample...", kBold);
    canvas.put(canvas.height() - 1, 0, footer_text(false));
}

int draw_dialog(Canvas& canvas, const ScreenInput& in) {
    const UiState& state = *in.state;
    ModalView view;
    view.footer = "Enter / Esc / q return | Up / Down, PgUp / PgDn, Home / End scroll";
    if (state.modal == Modal::help) {
        view.title = in.title + " help";
        view.lines = help_lines(in.replay);
        view.hanging_indent = 2;  // a key's wrapped text stays under it
    } else if (state.modal == Modal::gpu_details) {
        view.title = "GPU details";
        for (const auto& finding : in.unfiltered->health) view.lines.push_back("! Host: " + sanitize(finding));
        for (const auto& device : in.view->devices) {
            if (state.gpu_details_target && trend_identity(device) != *state.gpu_details_target) continue;
            if (!view.lines.empty()) view.lines.emplace_back();
            for (auto& line : gpu_detail_lines(device)) view.lines.push_back(std::move(line));
        }
        if (view.lines.empty()) view.lines.emplace_back("That GPU is no longer shown.");
    } else if (state.modal_process) {
        view.title = state.modal == Modal::confirm ? "Terminate this process with SIGTERM?" : "Process details";
        view.lines = process_detail_lines(*state.modal_process);
        if (state.modal == Modal::confirm)
            view.footer = "y confirm | n / Enter / Esc cancel (default: NO) | Up/Down scroll";
    }
    int scroll = state.modal_scroll;
    draw_modal(canvas, view, scroll);
    return scroll;
}

}  // namespace

ScreenRegions mouse_regions(const ScreenGeometry& g) {
    return {4, g.device_rows, g.device_offset, g.first_process_row - 1, g.first_process_row, process_columns(g)};
}

int longest_used_total(const Snapshot& view) {
    int longest = 0;
    for (const auto& d : view.devices)
        longest = std::max(longest, display_width(format_used_total(d.memory_used_bytes, d.memory_total_bytes)));
    return longest;
}

ScreenGeometry draw_screen(Canvas& canvas, const ScreenInput& in) {
    const UiState& state = *in.state;
    ScreenGeometry g;
    LayoutInput layout_input{canvas.width(),
                             canvas.height(),
                             state.trends_visible,
                             state.compact,
                             in.view ? longest_used_total(*in.view) : 0,
                             in.view && any_driver_status(in.view->devices)};
    g.layout = compute_layout(layout_input);
    if (g.layout.too_small) {
        canvas.put(0, 0,
                   "Terminal too small: resize to " + std::to_string(kMinWidth) + "x" + std::to_string(kMinHeight) +
                       " or more.");
        canvas.put(1, 0, "Press q or Ctrl-C to quit.");
        return g;
    }
    if (!in.unfiltered || !in.view) {
        draw_waiting(canvas, in);
        return g;
    }
    g.gpu_util_column = any_gpu_utilization(in.unfiltered->processes);
    const int visible = static_cast<int>(in.view->devices.size());
    g.device_offset = std::clamp(state.device_offset, 0, std::max(0, visible - g.layout.device_page_size));
    const int device_rows = device_rows_drawn(visible, g.device_offset, g.layout);
    g.first_process_row = 4 + device_rows + g.layout.trend_height + 2;
    g.device_rows = device_rows;
    g.process_page_size = std::max(1, canvas.height() - g.first_process_row - 2);
    if (state.modal != Modal::none) {
        g.modal_scroll = draw_dialog(canvas, in);
        return g;
    }
    draw_header_rows(canvas, in, g);
    draw_device_rows(canvas, in, g);
    draw_trend_block(canvas, 4 + device_rows, in, g.layout);
    draw_process_block(canvas, 4 + device_rows + g.layout.trend_height, in, g);
    draw_status_rows(canvas, in, g.layout);
    return g;
}

}  // namespace musatop::tui
