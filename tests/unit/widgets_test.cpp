#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "musatop/output/sanitize.hpp"
#include "musatop/tui/dialogs/modal.hpp"
#include "musatop/tui/widgets/area_graph.hpp"
#include "musatop/tui/widgets/bar.hpp"
#include "musatop/tui/widgets/trend_frame.hpp"
#include "musatop/util/utf8.hpp"

using namespace musatop;
using namespace musatop::tui;

namespace {

int braille_dots(const std::vector<std::string>& rows, std::size_t cell, bool right) {
    int dots = 0;
    for (const auto& row : rows) {
        const auto cps = utf8::decode(row);
        if (cell >= cps.size() || cps[cell] == U' ') continue;
        const unsigned bits = cps[cell] - 0x2800;
        const unsigned mask = right ? 0xB8 : 0x47;
        dots += __builtin_popcount(bits & mask);
    }
    return dots;
}

// The dots of one sample column, top to bottom.
std::vector<bool> dot_column(const std::vector<std::string>& rows, std::size_t cell, bool right) {
    static constexpr unsigned left_bits[4] = {0x01, 0x02, 0x04, 0x40};
    static constexpr unsigned right_bits[4] = {0x08, 0x10, 0x20, 0x80};
    std::vector<bool> dots;
    for (const auto& row : rows) {
        const char32_t cp = utf8::decode(row)[cell];
        const unsigned bits = cp == U' ' ? 0 : cp - 0x2800;
        for (int dy = 0; dy < 4; ++dy) dots.push_back(bits & (right ? right_bits : left_bits)[dy]);
    }
    return dots;
}

}  // namespace

TEST(Bars, UnicodeExamples) {
    EXPECT_EQ(render_bar(0, 8, false), "        ");
    EXPECT_EQ(render_bar(100, 8, false), "████████");
    EXPECT_EQ(render_bar(6.25, 8, false), "▌       ");
    EXPECT_EQ(render_bar(18.75, 8, false), "█▌      ");
    EXPECT_EQ(render_bar(99, 8, false), "███████▉");
    EXPECT_EQ(render_bar(25, 10, false), "██▌       ");
    EXPECT_EQ(render_bar(2.5, 10, false), "▎         ");
    EXPECT_EQ(render_bar(100, 9, false) + " " + percent_label(100), "█████████ 100%");
}

TEST(Bars, AsciiAndUnknown) {
    EXPECT_EQ(render_bar(25, 8, true), "##      ");
    EXPECT_EQ(render_bar(100, 8, true), "########");
    for (std::optional<double> bad : std::vector<std::optional<double>>{
             std::nullopt, std::nan(""), std::numeric_limits<double>::infinity(), -1.0, 101.0}) {
        EXPECT_EQ(render_bar(bad, 8, false), "░░░░░░░░");
        EXPECT_EQ(render_bar(bad, 8, true), "????????");
        EXPECT_EQ(percent_label(bad), " N/A");
    }
}

TEST(Bars, WidthsAndLabelsNeverMove) {
    for (int width : {0, 1, 5, 20, 100}) {
        for (std::optional<double> v : std::vector<std::optional<double>>{std::nullopt, 0, 0.1, 3, 25, 99.9, 100}) {
            EXPECT_EQ(display_width(render_bar(v, width, false)), width);
            const auto ascii = render_bar(v, width, true);
            EXPECT_EQ(static_cast<int>(ascii.size()), width);
            if (v) {
                EXPECT_EQ(ascii.find_first_not_of("# "), std::string::npos);
            }
            EXPECT_EQ(percent_label(v).size(), 4u);
        }
    }
    EXPECT_EQ(render_bar(50, -3, false), "");
    EXPECT_EQ(percent_label(0), "  0%");
    EXPECT_EQ(percent_label(25), " 25%");
}

TEST(Bars, GradientByPosition) {
    EXPECT_EQ(gradient_index(0, 9, 10), 1);
    EXPECT_EQ(gradient_index(8, 9, 10), 9);
    EXPECT_EQ(gradient_index(0, 10, 3), 0);
    EXPECT_EQ(gradient_index(9, 10, 3), 2);
}

TEST(AreaRows, BrailleExamples) {
    using S = std::vector<std::optional<double>>;
    EXPECT_EQ(area_rows(S{0, std::nullopt}, 3, false, false), (std::vector<std::string>{" ", " ", "⡀"}));
    EXPECT_EQ(area_rows(S{std::nullopt, 0}, 3, false, false), (std::vector<std::string>{" ", " ", "⢀"}));
    EXPECT_EQ(area_rows(S{0, std::nullopt}, 2, true, false), (std::vector<std::string>{"⠁", " "}));
    EXPECT_EQ(area_rows(S{100}, 2, false, false), (std::vector<std::string>{"⡇", "⡇"}));
    EXPECT_EQ(area_rows(S{}, 2, false, false), (std::vector<std::string>{"", ""}));
    EXPECT_TRUE(area_rows(S{50}, 0, false, false).empty());
    const auto rows = area_rows(S{0, 69, 99, 100}, 3, false, false);
    EXPECT_EQ(braille_dots(rows, 0, false), 1);
    EXPECT_EQ(braille_dots(rows, 0, true), 8);
    EXPECT_EQ(braille_dots(rows, 1, false), 11);
    EXPECT_EQ(braille_dots(rows, 1, true), 12);
}

TEST(AreaRows, MirrorIsTheExactVerticalReflection) {
    const std::vector<std::optional<double>> samples = {0, 13, 37, 50, 69, 99, std::nullopt, 100};
    const auto up = area_rows(samples, 3, false, false);
    const auto down = area_rows(samples, 3, true, false);
    for (std::size_t cell = 0; cell < 4; ++cell)
        for (bool right : {false, true}) {
            auto mirrored = dot_column(down, cell, right);
            std::reverse(mirrored.begin(), mirrored.end());
            EXPECT_EQ(dot_column(up, cell, right), mirrored) << cell << right;
        }
}

TEST(AreaRows, AsciiGeometry) {
    const std::vector<std::optional<double>> samples = {std::nullopt, 0, 69, 99, 100};
    EXPECT_EQ(area_rows(samples, 3, false, true), (std::vector<std::string>{"   :#", "  ###", " :###"}));
    EXPECT_EQ(area_rows(samples, 3, true, true), (std::vector<std::string>{" :###", "  ###", "   :#"}));
}

TEST(TrendFrame, PanelWidths) {
    EXPECT_EQ(trend_panel_widths(80, 2), (std::vector<int>{38, 38}));
    EXPECT_EQ(trend_panel_widths(120, 2), (std::vector<int>{58, 58}));
    EXPECT_EQ(trend_panel_widths(100, 2), (std::vector<int>{48, 48}));
    EXPECT_EQ(trend_panel_widths(79, 1), (std::vector<int>{76}));
    EXPECT_EQ(trend_panel_widths(60, 1), (std::vector<int>{57}));
    EXPECT_EQ(trend_panel_widths(81, 2), (std::vector<int>{38, 39}));
}

TEST(TrendFrame, AxisLabelPositions) {
    const auto positions = [](int size) {
        std::vector<int> out;
        for (const auto& [x, text] : axis_labels(size)) out.push_back(x);
        return out;
    };
    EXPECT_EQ(positions(38), (std::vector<int>{0, 15, 21, 30, 35}));
    EXPECT_EQ(positions(58), (std::vector<int>{0, 23, 31, 46, 55}));
    EXPECT_EQ(positions(76), (std::vector<int>{0, 30, 40, 60, 73}));
    EXPECT_EQ(positions(57), (std::vector<int>{0, 22, 30, 45, 54}));
}

TEST(TrendFrame, RowsAt80Columns) {
    const auto widths = trend_panel_widths(80, 2);
    EXPECT_EQ(frame_row(FrameRow::axis, widths, false),
              "├5m─────────────3m────0%───────1m───now┼5m─────────────3m────0%───────1m───now┤");
    EXPECT_EQ(frame_row(FrameRow::top, widths, false, {" Trend ▲ CPU now 30% ", " ▲ ALL 8 VRAM now 2% "}),
              "┌ Trend ▲ CPU now 30% ──────────── 100%┬ ▲ ALL 8 VRAM now 2% ──────────── 100%┐");
    EXPECT_EQ(frame_row(FrameRow::graph, widths, true), "|" + std::string(38, ' ') + "|" + std::string(38, ' ') + "|");
    EXPECT_EQ(frame_row(FrameRow::bottom, widths, true, {" v RAM now 12% | 5 min peaks "}),
              "+ v RAM now 12% | 5 min peaks ---- 100%+--------------------------------------+");
    const std::string long_label(100, 'x');
    EXPECT_EQ(display_width(frame_row(FrameRow::top, widths, false, {long_label, long_label})), 79);
}

TEST(WrapLines, LongWordsBreakAndWordsJoinTheOpenPiece) {
    using musatop::tui::wrap_lines;
    EXPECT_EQ(wrap_lines({"abcdefgh ij"}, 3), (std::vector<std::string>{"abc", "def", "gh", "ij"}));
    EXPECT_EQ(wrap_lines({"abcdefg h"}, 3), (std::vector<std::string>{"abc", "def", "g h"}));
    EXPECT_EQ(wrap_lines({"one two three"}, 7), (std::vector<std::string>{"one two", "three"}));
    EXPECT_EQ(wrap_lines({"宽宽宽"}, 3), (std::vector<std::string>{"宽", "宽", "宽"}));  // 2 cells each
    EXPECT_EQ(wrap_lines({"宽"}, 1), (std::vector<std::string>{"宽"}));  // wider than the line: taken anyway
    EXPECT_EQ(wrap_lines({"", "a"}, 5), (std::vector<std::string>{"", "a"}));
}

// The help's wrapped lines continue indented under their text, so a key's sentence
// reads as one and the next key stands out.
TEST(WrapLines, AHangingIndentStartsEveryContinuation) {
    using musatop::tui::wrap_lines;
    EXPECT_EQ(wrap_lines({"k: one two three four", "q: quit"}, 10, 2),
              (std::vector<std::string>{"k: one two", "  three", "  four", "q: quit"}));
    EXPECT_EQ(wrap_lines({"abcdefghij"}, 6, 2), (std::vector<std::string>{"abcdef", "  ghij"}));
}

TEST(WrapLines, A128KiBWordWrapsIntoExactPieces) {
    const std::string word(128 * 1024, 'x');
    const auto lines = musatop::tui::wrap_lines({word}, 100);
    ASSERT_EQ(lines.size(), (128 * 1024 + 99) / 100);
    for (std::size_t i = 0; i + 1 < lines.size(); ++i) ASSERT_EQ(lines[i].size(), 100u);
    EXPECT_EQ(lines.back().size(), 128u * 1024 % 100);
}

TEST(DialogCommand, CutAt64KiBWithAMarkerOnACharacterBoundary) {
    using musatop::tui::dialog_command;
    EXPECT_EQ(dialog_command(std::nullopt), "N/A");
    EXPECT_EQ(dialog_command(std::string("python train.py")), "python train.py");
    std::string huge(65535, 'a');
    huge += "宽宽";  // the cut falls inside the first 3-byte character
    const std::string shown = dialog_command(huge);
    EXPECT_EQ(shown, std::string(65535, 'a') + " [... cut at 64 KiB of 65541 bytes]");
}
