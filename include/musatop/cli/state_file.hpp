// The screen's remembered choices: $XDG_STATE_HOME/musatop/state.toml, the keys
// sort, reverse, compact and trends of the settings table. Written atomically
// (a temporary file, then rename) after each change, so a crash or a signal never
// leaves half a file.
#pragma once

#include <optional>
#include <string>

#include "musatop/cli/settings.hpp"
#include "musatop/tui/tui_app.hpp"

namespace musatop::cli {

// A missing file is an empty layer; anything else unreadable is an error.
Result<SettingLayer> read_state(const std::string& path);

// Creates the directory when needed; the error text on failure.
std::optional<std::string> write_state(const std::string& path, const tui::ScreenChoices& choices);

}  // namespace musatop::cli
