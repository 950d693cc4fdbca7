// The one table of the main screen's keys. The controller dispatches from it, the
// footer and the help dialog are printed from it, so a key cannot work without
// being documented, or be documented without working.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "musatop/tui/key_rows.hpp"

namespace musatop::tui {

// clang-format off
enum class Action {
    none, quit, help, select_previous, select_next, select_first, select_last, gpus_page_up, gpus_page_down,
    trend_next, trend_previous, toggle_trends, sort_next, sort_reverse, search, my_processes, compact, refresh,
    details, gpu_details, terminate, redraw, replay_pause, replay_back, replay_forward, replay_slower, replay_faster,
    replay_start, replay_end, replay_jump
};
// clang-format on

using Binding = BindingOf<Action>;
using KeyEntry = KeyRow<Action>;

std::span<const KeyEntry> key_table();

// The action bound to `key` on the main screen, if any.
Action action_for(const Key& key, bool replay = false);

// "q quit ? help ..." in table order; the short one keeps the entries marked so.
std::string footer_text(bool wide, bool replay = false);

// "keys: help" for every entry, in table order.
std::vector<std::string> key_help_lines(bool replay = false);

}  // namespace musatop::tui
