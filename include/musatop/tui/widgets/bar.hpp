// UTIL / VRAM progress bars: exact widths, eighth-block resolution, hatched unknown.
#pragma once

#include <optional>
#include <string>

namespace musatop::tui {

// Exactly `width` cells: full blocks plus one partial eighth (Unicode) or '#'s
// (ASCII); unknown or out-of-range values are hatched ('░' / '?').
std::string render_bar(std::optional<double> percent, int width, bool ascii);

// Always 4 characters: "  0%", " 25%", "100%", " N/A".
std::string percent_label(std::optional<double> percent);

// The colour of cell `cell` in a left-to-right green-to-red gradient of
// `palette_size` colours; the colour belongs to the position, not to the value.
int gradient_index(int cell, int width, int palette_size);

bool bar_value_known(std::optional<double> percent);

}  // namespace musatop::tui
