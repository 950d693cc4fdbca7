// Everything the interactive screen remembers between frames. Plain data: the key
// handler changes it, the renderer reads it.
#pragma once

#include <optional>
#include <string>

#include "musatop/tui/line_editor.hpp"
#include "musatop/tui/status_message.hpp"

#include "musatop/model/process_identity.hpp"
#include "musatop/model/snapshot.hpp"
#include "musatop/model/view_filter.hpp"
#include "musatop/replay/replay_control.hpp"
#include "musatop/sampler/frame_feed.hpp"

namespace musatop::tui {

enum class Modal { none, help, details, confirm, gpu_details };

struct UiState {
    ViewFilter filter;       // command-line filters plus search and "u"
    std::string login_name;  // for "u"
    bool current_user_only = false;
    bool search_editing = false;
    LineEditor search_draft;
    std::string search_before;  // what Esc puts back: the search filters as it is typed
    bool time_editing = false;  // replay: the "t" prompt
    LineEditor time_draft{{}, true};
    replay::ReplayCommand replay_command = replay::ReplayCommand::toggle_pause;  // for Effect::replay
    std::string replay_argument;
    bool compact = false;
    bool trends_visible = true;
    int selection = 0;
    int process_offset = 0;
    int device_offset = 0;
    std::optional<ProcessIdentity> selected;  // the selection follows its process
    // Trend target: a GPU's history key (or "index:N" for a keyless GPU); none = ALL.
    std::optional<std::string> trend_target;
    Modal modal = Modal::none;
    int modal_scroll = 0;
    std::optional<GpuProcess> modal_process;  // a copy taken when the modal opened
    // The GPU details dialog follows live data: the trend target it opened on
    // (none = every GPU shown).
    std::optional<std::string> gpu_details_target;
    // The last left press on a process row, for double-clicks.
    int last_click_index = -1;
    MonoTime last_click_at{};
    StatusMessage message;
};

// The filter in force: command-line filters, the search text and "u".
ViewFilter effective_filter(const UiState& state);

}  // namespace musatop::tui
