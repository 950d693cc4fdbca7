#include "musatop/collection/gmi/text_lines.hpp"

#include <algorithm>

#include "musatop/collection/gmi/values.hpp"
#include "musatop/util/split.hpp"

namespace musatop::gmi {
namespace {
char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }
}  // namespace

std::string strip_ansi_csi(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
            std::size_t j = i + 2;
            while (j < text.size() && text[j] >= 0x30 && text[j] <= 0x3F) ++j;
            while (j < text.size() && text[j] >= 0x20 && text[j] <= 0x2F) ++j;
            if (j < text.size() && text[j] >= 0x40 && text[j] <= 0x7E) {
                i = j;
                continue;
            }
        }
        out.push_back(text[i]);
    }
    return out;
}

std::vector<std::string_view> split_lines(std::string_view text) {
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        const auto end = text.find('\n');
        std::string_view line = text.substr(0, end);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        lines.push_back(line);
        if (end == std::string_view::npos) break;
        text.remove_prefix(end + 1);
    }
    return lines;
}

std::vector<std::string_view> split_words(std::string_view text) { return split_whitespace(text); }

bool starts_with_icase(std::string_view text, std::string_view prefix) {
    if (text.size() < prefix.size()) return false;
    for (std::size_t i = 0; i < prefix.size(); ++i)
        if (lower(text[i]) != lower(prefix[i])) return false;
    return true;
}

bool contains_icase(std::string_view text, std::string_view needle) {
    if (needle.empty()) return true;
    for (std::size_t i = 0; i + needle.size() <= text.size(); ++i)
        if (starts_with_icase(text.substr(i), needle)) return true;
    return false;
}

bool all_digits(std::string_view text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool is_rule_line(std::string_view line) {
    line = trim(line);
    return !line.empty() && std::all_of(line.begin(), line.end(), [](char c) {
        return c == '-' || c == '+' || c == '=' || c == '|' || c == ' ' || c == '\t';
    });
}

std::string find_error_line(std::string_view text) {
    for (auto line : split_lines(text)) {
        line = trim(line);
        if (starts_with_icase(line, "Error:")) return std::string(line);
    }
    return {};
}

}  // namespace musatop::gmi
