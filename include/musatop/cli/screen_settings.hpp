// The screen's settings from the options, for the live screen and the replay:
// filters, looks, the first state of c and h, --record's hook, and the hook that
// remembers the user's choices in state.toml.
#pragma once

#include <optional>
#include <string>

#include "musatop/cli/options.hpp"
#include "musatop/tui/tui_app.hpp"

namespace musatop::cli {

// `state_path`: where to remember on-screen choices (none: do not remember).
tui::TuiSettings screen_settings(const Options& options, const std::optional<std::string>& state_path);

}  // namespace musatop::cli
