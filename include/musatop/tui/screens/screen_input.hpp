// What one frame of the main screen is drawn from: data, history, UI state.
#pragma once

#include <cstdint>
#include <string>

#include "musatop/model/history.hpp"
#include "musatop/model/snapshot.hpp"
#include "musatop/tui/screens/process_columns.hpp"
#include "musatop/tui/canvas.hpp"
#include "musatop/tui/layout.hpp"
#include "musatop/tui/ui_state.hpp"

namespace musatop::tui {

struct ScreenInput {
    const Snapshot* unfiltered = nullptr;  // null until the first sample
    const Snapshot* view = nullptr;        // filtered and sorted
    const History* history = nullptr;
    const UiState* state = nullptr;
    std::int64_t now_second = 0;  // floor of the monotonic clock, for the trends
    MonoTime now{};               // for message expiry
    bool ascii = false;
    std::string title = "musatop";
    std::string badge;    // after the title: "REC day.rec" while recording, "REPLAY ..." in a replay
    bool replay = false;  // the footer names the replay keys
};

// Geometry the key handler needs (page sizes) and what got drawn where.
struct ScreenGeometry {
    Layout layout;
    int device_offset = 0;  // clamped
    int process_page_size = 1;
    int first_process_row = 0;
    int device_rows = 0;
    int modal_scroll = 0;          // clamped to the dialog's length
    bool gpu_util_column = false;  // some process carries proc_util figures (or why not)
};

inline ProcessColumns process_columns(const ScreenGeometry& g) {
    return {g.layout.compact, g.layout.job_column, g.gpu_util_column};
}

inline constexpr Style kBold{Color::none, 0, true};
inline constexpr Style kDim{Color::none, 0, false, true};

// Pieces of the main screen, each drawing its own rows.
void draw_header_rows(Canvas& canvas, const ScreenInput& in, const ScreenGeometry& geometry);
int draw_device_rows(Canvas& canvas, const ScreenInput& in, const ScreenGeometry& geometry);  // rows drawn
void draw_trend_block(Canvas& canvas, int top_row, const ScreenInput& in, const Layout& layout);
void draw_process_block(Canvas& canvas, int top_row, const ScreenInput& in, const ScreenGeometry& geometry);
void draw_status_rows(Canvas& canvas, const ScreenInput& in, const Layout& layout);

}  // namespace musatop::tui
