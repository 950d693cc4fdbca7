// A frame of the screen as plain data: rows of cells, each a glyph with a style.
// Screens draw into a Canvas (pure, testable); the curses adapter only copies it out.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace musatop::tui {

enum class Color : std::uint8_t { none, unknown, cpu, ram, vram, util, gradient };

struct Style {
    Color color = Color::none;
    std::uint8_t gradient = 0;  // palette entry when color == gradient
    bool bold = false;
    bool dim = false;
    bool reverse = false;
    bool underline = false;

    bool operator==(const Style&) const = default;
    Style with_dim(bool on) const {
        Style s = *this;
        s.dim = s.dim || on;
        return s;
    }
};

struct Cell {
    std::string glyph = " ";  // empty: the right half of a wide glyph to its left
    Style style;
    bool operator==(const Cell&) const = default;
};

class Canvas {
public:
    Canvas(int width, int height);

    int width() const { return width_; }
    int height() const { return height_; }

    // Writes sanitised text at (row, col), clipped before the last column (curses
    // cannot write the bottom-right cell safely). Returns the column after the text.
    int put(int row, int col, std::string_view text, Style style = {});
    void set_style(int row, int col, int cells, Style style);

    const Cell& at(int row, int col) const { return cells_[static_cast<std::size_t>(row * width_ + col)]; }
    std::string row_text(int row) const;  // trailing spaces removed
    std::string text() const;             // every row, newline-terminated

private:
    int width_;
    int height_;
    std::vector<Cell> cells_;
};

}  // namespace musatop::tui
