// Key handling and the per-frame bookkeeping of the UI state. Pure: no terminal,
// no signals, no GMI.
#pragma once

#include <vector>

#include "musatop/model/snapshot.hpp"
#include "musatop/tui/keys.hpp"
#include "musatop/tui/screens/process_columns.hpp"
#include "musatop/tui/ui_state.hpp"

namespace musatop::tui {

// replay: state.replay_command (and replay_argument) is for the feed.
enum class Effect { none, quit, refresh, confirm_termination, redraw, replay };

// Where things are on the drawn screen, for the mouse (rows and columns from 0).
struct ScreenRegions {
    int device_top = 4;
    int device_rows = 0;  // drawn device rows
    int device_offset = 0;
    int process_header = -1;  // the column header row
    int process_top = -1;     // the first process row
    ProcessColumns columns;
};

// What the key handler needs to know about the screen it acts on.
struct ScreenContext {
    const Snapshot* unfiltered = nullptr;      // newest data, before filters
    Provenance provenance = Provenance::live;  // of that data: only live processes may be signalled
    std::vector<GpuProcess> processes;         // filtered and sorted, as shown
    std::vector<Device> devices;               // filtered, as shown
    int process_page_size = 1;
    int device_page_size = 1;
    int help_line_count = 0;
    int modal_page_size = 1;  // the lines a dialog shows at once: PgUp/PgDn move by this
    bool replay = false;      // the keys of a replay apply
    MonoTime now{};           // for message expiry
    ScreenRegions regions;
};

// Two presses on the same process row within this time open its details.
inline constexpr std::chrono::milliseconds kDoubleClick{400};

inline constexpr std::chrono::seconds kMessageDuration{3};

Effect handle_key(UiState& state, const Key& key, const ScreenContext& context);

// After new data: the selection follows its process, a vanished trend target falls
// back to ALL, and an open SIGTERM dialog closes if its target is no longer current.
void on_new_data(UiState& state, const ScreenContext& context);

// Keeps the selection and the process page inside the list.
void clamp_scroll(UiState& state, const ScreenContext& context);

// The trend cycle: ALL, then each visible GPU in display order.
std::vector<std::optional<std::string>> trend_targets(const std::vector<Device>& visible);
std::string trend_identity(const Device& device);

}  // namespace musatop::tui
