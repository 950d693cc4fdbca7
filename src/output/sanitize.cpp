#include "musatop/output/sanitize.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "musatop/util/utf8.hpp"

namespace musatop {
namespace {

struct Range {
    char32_t first;
    char32_t last;
};

template <std::size_t N>
bool in_ranges(char32_t cp, const std::array<Range, N>& ranges) {
    return std::any_of(ranges.begin(), ranges.end(), [cp](const Range& r) { return cp >= r.first && cp <= r.last; });
}

// Unicode general category Cf (format characters).
// clang-format off
constexpr std::array<Range, 21> format_characters = {{
    {0x00AD, 0x00AD}, {0x0600, 0x0605}, {0x061C, 0x061C}, {0x06DD, 0x06DD}, {0x070F, 0x070F},
    {0x0890, 0x0891}, {0x08E2, 0x08E2}, {0x180E, 0x180E}, {0x200B, 0x200F}, {0x202A, 0x202E},
    {0x2060, 0x2064}, {0x2066, 0x206F}, {0xFEFF, 0xFEFF}, {0xFFF9, 0xFFFB}, {0x110BD, 0x110BD},
    {0x110CD, 0x110CD}, {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0001, 0xE0001},
    {0xE0020, 0xE007F},
}};

constexpr std::array<Range, 14> zero_width = {{
    {0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x0610, 0x061A}, {0x064B, 0x065F},
    {0x0E31, 0x0E31}, {0x0E34, 0x0E3A}, {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF}, {0x20D0, 0x20FF},
    {0x302A, 0x302D}, {0x3099, 0x309A}, {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F},
}};

constexpr std::array<Range, 22> wide = {{
    {0x1100, 0x115F}, {0x231A, 0x231B}, {0x2329, 0x232A}, {0x23E9, 0x23EC}, {0x23F0, 0x23F0},
    {0x23F3, 0x23F3}, {0x25FD, 0x25FE}, {0x2614, 0x2615}, {0x2648, 0x2653}, {0x26A1, 0x26A1},
    {0x2E80, 0x303E}, {0x3041, 0x33FF}, {0x3400, 0x4DBF}, {0x4E00, 0x9FFF}, {0xA000, 0xA4CF},
    {0xA960, 0xA97F}, {0xAC00, 0xD7A3}, {0xF900, 0xFAFF}, {0xFE10, 0xFE19}, {0xFE30, 0xFE6F},
    {0xFF00, 0xFF60}, {0xFFE0, 0xFFE6},
}};

constexpr std::array<Range, 5> wide_astral = {{
    {0x1F300, 0x1F64F}, {0x1F680, 0x1F6FF}, {0x1F900, 0x1F9FF}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
}};
// clang-format on

}  // namespace

bool is_unsafe_code_point(char32_t cp) {
    if (cp >= 0x20 && cp < 0x7F) return false;                                   // printable ASCII: the common case
    if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F)) return true;                    // Cc
    if (cp >= 0xD800 && cp <= 0xDFFF) return true;                               // Cs
    if ((cp >= 0xE000 && cp <= 0xF8FF) || cp >= 0xF0000) return true;            // Co (planes 15-16 are private use)
    if ((cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE) return true;  // non-characters
    return in_ranges(cp, format_characters);
}

int code_point_width(char32_t cp) {
    if (cp < 0x300) return 1;  // Latin: no combining or wide characters below U+0300
    if (in_ranges(cp, zero_width)) return 0;
    if (in_ranges(cp, wide) || in_ranges(cp, wide_astral)) return 2;
    return 1;
}

std::string sanitize_lines(std::string_view text) {
    std::string out;
    for (std::size_t start = 0; start <= text.size();) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        out += sanitize(text.substr(start, end - start));
        if (end == text.size()) break;
        out += '\n';
        start = end + 1;
    }
    return out;
}

std::string sanitize(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char32_t cp : utf8::decode(text)) utf8::append(out, is_unsafe_code_point(cp) ? U' ' : cp);
    return out;
}

std::string sanitize_or_na(const std::optional<std::string>& text) {
    return text ? sanitize(std::string_view(*text)) : "N/A";
}

int display_width(std::string_view text) {
    int width = 0;
    for (char32_t cp : utf8::decode(text)) width += code_point_width(cp);
    return width;
}

std::string truncate_to_width(std::string_view text, int cells) {
    std::string out;
    int width = 0;
    for (char32_t cp : utf8::decode(text)) {
        const int w = code_point_width(cp);
        if (width + w > cells) break;
        width += w;
        utf8::append(out, cp);
    }
    return out;
}

std::string pad_right(std::string_view text, int cells) {
    std::string out(text);
    out.append(static_cast<std::size_t>(std::max(0, cells - display_width(out))), ' ');
    return out;
}

std::string pad_left(std::string_view text, int cells) {
    return std::string(static_cast<std::size_t>(std::max(0, cells - display_width(text))), ' ') + std::string(text);
}

std::string fit_right(std::string_view text, int cells) { return pad_right(truncate_to_width(text, cells), cells); }

std::string fit_tail(std::string_view text, int cells) {
    if (display_width(text) <= cells) return pad_right(text, cells);
    if (cells <= 0) return "";
    const auto points = utf8::decode(text);
    std::size_t first = points.size();
    int width = 1;  // the "~"
    while (first > 0 && width + code_point_width(points[first - 1]) <= cells)
        width += code_point_width(points[--first]);
    std::string out = "~";
    for (std::size_t i = first; i < points.size(); ++i) utf8::append(out, points[i]);
    return pad_right(out, cells);
}

}  // namespace musatop
