#include "musatop/tui/widgets/area_graph.hpp"

#include <algorithm>
#include <cmath>

#include "musatop/util/utf8.hpp"

namespace musatop::tui {
namespace {

int fill_level(const std::optional<double>& value, int steps) {
    if (!value || !std::isfinite(*value) || *value < 0 || *value > 100) return 0;
    return std::max(1, static_cast<int>(std::floor(*value * steps / 100.0)));
}

std::vector<std::string> ascii_rows(const std::vector<std::optional<double>>& samples, int height, bool upside_down) {
    std::vector<std::string> rows;
    for (int r = 0; r < height; ++r) {
        const int baseline = upside_down ? r : height - 1 - r;
        std::string row;
        for (const auto& sample : samples) {
            const int count = std::clamp(fill_level(sample, height * 2) - 2 * baseline, 0, 2);
            row += count == 0 ? ' ' : (count == 1 ? ':' : '#');
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

std::vector<std::string> braille_rows(std::vector<std::optional<double>> samples, int height, bool upside_down) {
    if (samples.size() % 2) samples.emplace_back();
    static constexpr unsigned left_bits[4] = {0x01, 0x02, 0x04, 0x40};
    static constexpr unsigned right_bits[4] = {0x08, 0x10, 0x20, 0x80};
    const int steps = height * 4;
    std::vector<std::string> rows;
    for (int r = 0; r < height; ++r) {
        std::string row;
        for (std::size_t i = 0; i < samples.size(); i += 2) {
            const int fills[2] = {fill_level(samples[i], steps), fill_level(samples[i + 1], steps)};
            unsigned bits = 0;
            for (int dy = 0; dy < 4; ++dy) {
                const int y = 4 * r + dy;
                const int distance = upside_down ? y : steps - 1 - y;
                if (distance < fills[0]) bits |= left_bits[dy];
                if (distance < fills[1]) bits |= right_bits[dy];
            }
            if (bits == 0) {
                row += ' ';
            } else {
                utf8::append(row, 0x2800 + bits);
            }
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

}  // namespace

std::vector<std::string> area_rows(const std::vector<std::optional<double>>& samples, int height, bool upside_down,
                                   bool ascii) {
    if (height <= 0) return {};
    return ascii ? ascii_rows(samples, height, upside_down) : braille_rows(samples, height, upside_down);
}

}  // namespace musatop::tui
