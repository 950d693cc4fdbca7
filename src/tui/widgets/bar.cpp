#include "musatop/tui/widgets/bar.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace musatop::tui {

bool bar_value_known(std::optional<double> percent) {
    return percent && std::isfinite(*percent) && *percent >= 0 && *percent <= 100;
}

std::string render_bar(std::optional<double> percent, int width, bool ascii) {
    width = std::max(0, width);
    std::string out;
    if (!bar_value_known(percent)) {
        for (int i = 0; i < width; ++i) out += ascii ? "?" : "░";
        return out;
    }
    if (ascii) {
        const int full = static_cast<int>(std::floor(*percent * width / 100.0));
        return std::string(static_cast<std::size_t>(full), '#') +
               std::string(static_cast<std::size_t>(width - full), ' ');
    }
    static const char* const partials[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};
    const auto eighths = static_cast<long>(std::floor(*percent * width * 8 / 100.0));
    const long full = eighths / 8;
    const long fraction = eighths % 8;
    for (long i = 0; i < full; ++i) out += "█";
    out += partials[fraction];
    const long used = full + (fraction ? 1 : 0);
    out.append(static_cast<std::size_t>(width - used), ' ');
    return out;
}

std::string percent_label(std::optional<double> percent) {
    if (!bar_value_known(percent)) return " N/A";
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "%3.0f%%", *percent);
    return buffer;
}

int gradient_index(int cell, int width, int palette_size) {
    if (palette_size <= 0 || width <= 0) return 0;
    const double position = (cell + 1) * 100.0 / width;
    return std::min(palette_size - 1, static_cast<int>(std::floor(position * palette_size / 100.0)));
}

}  // namespace musatop::tui
