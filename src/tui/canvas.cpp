#include "musatop/tui/canvas.hpp"

#include <algorithm>

#include "musatop/output/sanitize.hpp"
#include "musatop/util/utf8.hpp"

namespace musatop::tui {

Canvas::Canvas(int width, int height)
    : width_(std::max(0, width)), height_(std::max(0, height)), cells_(static_cast<std::size_t>(width_ * height_)) {}

int Canvas::put(int row, int col, std::string_view text, Style style) {
    if (row < 0 || row >= height_) return col;
    const int limit = width_ - 1;
    for (char32_t cp : utf8::decode(text)) {
        if (is_unsafe_code_point(cp)) cp = U' ';
        const int w = code_point_width(cp);
        if (w == 0) continue;  // combining marks would need the previous cell; drop them
        if (col + w > limit) break;
        if (col >= 0) {
            Cell& cell = cells_[static_cast<std::size_t>(row * width_ + col)];
            cell.glyph.clear();
            utf8::append(cell.glyph, cp);
            cell.style = style;
            if (w == 2) cells_[static_cast<std::size_t>(row * width_ + col + 1)] = Cell{"", style};
        }
        col += w;
    }
    return col;
}

void Canvas::set_style(int row, int col, int cells, Style style) {
    if (row < 0 || row >= height_) return;
    for (int c = std::max(0, col); c < std::min(width_, col + cells); ++c)
        cells_[static_cast<std::size_t>(row * width_ + c)].style = style;
}

std::string Canvas::row_text(int row) const {
    std::string out;
    for (int c = 0; c < width_; ++c) out += at(row, c).glyph;
    const auto end = out.find_last_not_of(' ');
    return end == std::string::npos ? std::string() : out.substr(0, end + 1);
}

std::string Canvas::text() const {
    std::string out;
    for (int r = 0; r < height_; ++r) out += row_text(r) + "\n";
    return out;
}

}  // namespace musatop::tui
