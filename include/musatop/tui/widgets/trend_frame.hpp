// The box around the trend graphs: panel widths, border rows and axis labels.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace musatop::tui {

// Inner widths of `panels` side-by-side panels in `screen_width` columns (the last
// column is never drawn); the last panel takes the remainder.
std::vector<int> trend_panel_widths(int screen_width, int panels);

// Axis labels per panel, in drawing order (later ones overwrite on overlap):
// 5m at 0, 3m at 40 %, 0% near the middle, 1m at 80 %, now at the end.
std::vector<std::pair<int, std::string>> axis_labels(int panel_width);

enum class FrameRow { top, graph, axis, bottom };

// One full row of the frame; `labels` (top and bottom rows only) are written from
// the start of each panel and cut to its width.
std::string frame_row(FrameRow row, const std::vector<int>& widths, bool ascii,
                      const std::vector<std::string>& labels = {});

}  // namespace musatop::tui
