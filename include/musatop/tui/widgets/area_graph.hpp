// Area graphs on a fixed 0-100 % scale: Braille (2 samples x 4 dots per cell) or
// ASCII (1 sample x 2 levels per cell), upright or mirrored (growing downward).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace musatop::tui {

// `height` rows, top first. An observed 0 % draws a one-dot baseline; unknown is blank.
std::vector<std::string> area_rows(const std::vector<std::optional<double>>& samples, int height, bool upside_down,
                                   bool ascii);

}  // namespace musatop::tui
