// Colour for the text outputs (--once, its cluster form) on a terminal, as gpustat
// colours its lines: each field wrapped in an SGR sequence after it was padded, so
// widths do not change. Off (the default) passes text through: pipes, NO_COLOR,
// --no-color and every test that compares text get exactly the plain output.
#pragma once

#include <string>

namespace musatop {

enum class Ink { bold, index, name, util, memory, temperature, user, warning, error };

struct Paint {
    bool on = false;
    std::string operator()(Ink ink, const std::string& text) const;
};

}  // namespace musatop
