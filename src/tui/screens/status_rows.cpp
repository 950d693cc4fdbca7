// The two bottom rows: the status line (search prompt, errors, messages, notes)
// and the key reminder.
#include <string>

#include "musatop/output/sanitize.hpp"
#include "musatop/tui/key_table.hpp"
#include "musatop/tui/screens/screen_input.hpp"

namespace musatop::tui {
namespace {

// "GPU 1, 6: health findings (i for details)"; host findings come first.
std::string health_text(const Snapshot& unfiltered, const Snapshot& view) {
    if (!unfiltered.health.empty()) return "Health: " + sanitize(unfiltered.health.front()) + " (i for details)";
    std::string gpus;
    for (const auto& d : view.devices)
        if (!d.health.empty()) gpus += (gpus.empty() ? "" : ", ") + std::to_string(d.index);
    return gpus.empty() ? std::string() : "GPU " + gpus + ": health findings (i for details)";
}

std::string note_text(const Snapshot& unfiltered, const Snapshot& view) {
    if (unfiltered.is_demo()) return "Demo data: synthetic GPUs and processes; mthreads-gmi is not run.";
    if (auto health = health_text(unfiltered, view); !health.empty()) return health;
    for (const auto& d : view.devices)
        if (d.power_limit_reason) return "Power limit N/A: GMI does not report a usable current limit (? for help).";
    if (unfiltered.device_source_reason) return sanitize(*unfiltered.device_source_reason);
    if (unfiltered.processes_unverified_reason) return sanitize(*unfiltered.processes_unverified_reason);
    if (!unfiltered.musa_version && unfiltered.musa_version_reason)
        return "MUSA Toolkit: " + sanitize(*unfiltered.musa_version_reason);
    return {};
}

}  // namespace

void draw_status_rows(Canvas& canvas, const ScreenInput& in, const Layout& layout) {
    const UiState& state = *in.state;
    const int status_row = canvas.height() - 2;
    if (state.search_editing) {
        canvas.put(status_row, 0, "/" + state.search_draft.text + "  [Enter apply, Esc cancel]", kBold);
    } else if (state.time_editing) {
        canvas.put(status_row, 0, "Jump to: " + state.time_draft.text + "  [Enter jump, Esc cancel]", kBold);
    } else if (!in.unfiltered->errors.empty()) {
        std::string errors;
        for (const auto& e : in.unfiltered->errors) errors += (errors.empty() ? "" : "; ") + e;
        canvas.put(status_row, 0, errors, Style{Color::none, 0, true});
    } else if (state.message.visible(in.now)) {
        canvas.put(status_row, 0, state.message.text);
    } else {
        canvas.put(status_row, 0, note_text(*in.unfiltered, *in.view), kDim);
    }
    canvas.put(canvas.height() - 1, 0, footer_text(layout.wide_footer, in.replay));
}

}  // namespace musatop::tui
