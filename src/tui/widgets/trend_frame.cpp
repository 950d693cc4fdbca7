#include "musatop/tui/widgets/trend_frame.hpp"

#include <cmath>

#include "musatop/output/sanitize.hpp"
#include "musatop/util/utf8.hpp"

namespace musatop::tui {
namespace {

struct Glyphs {
    const char* left;
    const char* joint;
    const char* right;
    const char* fill;
};

Glyphs glyphs_for(FrameRow row, bool ascii) {
    if (ascii) return row == FrameRow::graph ? Glyphs{"|", "|", "|", " "} : Glyphs{"+", "+", "+", "-"};
    switch (row) {
        case FrameRow::top: return {"┌", "┬", "┐", "─"};
        case FrameRow::axis: return {"├", "┼", "┤", "─"};
        case FrameRow::bottom: return {"└", "┴", "┘", "─"};
        case FrameRow::graph: break;
    }
    return {"│", "│", "│", " "};
}

// `width` cells of `fill` with `overlays` written over them at their offsets.
std::string panel_run(int width, const char* fill, const std::vector<std::pair<int, std::string>>& overlays) {
    std::vector<std::string> cells(static_cast<std::size_t>(std::max(0, width)), fill);
    for (const auto& [offset, text] : overlays) {
        int x = offset;
        for (char32_t cp : utf8::decode(truncate_to_width(text, std::max(0, width - offset)))) {
            if (x < 0 || x >= width) break;
            std::string glyph;
            utf8::append(glyph, cp);
            cells[static_cast<std::size_t>(x++)] = glyph;
        }
    }
    std::string out;
    for (const auto& cell : cells) out += cell;
    return out;
}

}  // namespace

std::vector<int> trend_panel_widths(int screen_width, int panels) {
    if (panels <= 0) return {};
    const int inner = std::max(0, screen_width - 1 - (panels + 1));
    std::vector<int> widths(static_cast<std::size_t>(panels), inner / panels);
    widths.back() += inner % panels;
    return widths;
}

std::vector<std::pair<int, std::string>> axis_labels(int size) {
    return {{0, "5m"},
            {static_cast<int>(std::lround((size - 1) * 0.4)), "3m"},
            {size / 2 + 2, "0%"},
            {static_cast<int>(std::lround((size - 1) * 0.8)), "1m"},
            {size - 3, "now"}};
}

std::string frame_row(FrameRow row, const std::vector<int>& widths, bool ascii,
                      const std::vector<std::string>& labels) {
    const Glyphs g = glyphs_for(row, ascii);
    std::string out = g.left;
    for (std::size_t i = 0; i < widths.size(); ++i) {
        std::vector<std::pair<int, std::string>> overlays;
        if (row == FrameRow::axis) overlays = axis_labels(widths[i]);
        if ((row == FrameRow::top || row == FrameRow::bottom) && i < labels.size()) {
            overlays = {{0, labels[i]}};
            // The scale's end where the graph reaches it: 100% at the top and at the
            // bottom edge, 0% on the axis between them (a title's second "100%" was
            // understood by no one).
            if (display_width(labels[i]) + 8 <= widths[i]) overlays.push_back({widths[i] - 5, " 100%"});
        }
        out += panel_run(widths[i], g.fill, overlays);
        out += i + 1 < widths.size() ? g.joint : g.right;
    }
    return out;
}

}  // namespace musatop::tui
