// The whole screen for one frame: main view, a dialog, or the too-small notice.
#pragma once

#include "musatop/tui/controller.hpp"
#include "musatop/tui/screens/screen_input.hpp"

namespace musatop::tui {

// Draws into `canvas` and returns the geometry used (page sizes for the keys).
ScreenGeometry draw_screen(Canvas& canvas, const ScreenInput& in);

// The widest "used/total" text among the visible GPUs (fixes the column width).
int longest_used_total(const Snapshot& view);

// Where the drawn frame put its parts, for the mouse.
ScreenRegions mouse_regions(const ScreenGeometry& geometry);

}  // namespace musatop::tui
