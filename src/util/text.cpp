#include "musatop/util/text.hpp"

#include <algorithm>
#include <array>

namespace musatop::text {

std::string_view trim(std::string_view text) {
    while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
    while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
    return text;
}

std::string fold_case(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = fold(c);
    return out;
}

bool iequals(std::string_view a, std::string_view b) { return a.size() == b.size() && starts_with_icase(a, b); }

bool starts_with_icase(std::string_view text, std::string_view prefix) {
    if (text.size() < prefix.size()) return false;
    for (std::size_t i = 0; i < prefix.size(); ++i)
        if (fold(text[i]) != fold(prefix[i])) return false;
    return true;
}

bool contains_icase(std::string_view text, std::string_view needle) {
    if (needle.empty()) return true;
    for (std::size_t i = 0; i + needle.size() <= text.size(); ++i)
        if (starts_with_icase(text.substr(i), needle)) return true;
    return false;
}

bool all_digits(std::string_view text) { return !text.empty() && std::all_of(text.begin(), text.end(), is_digit); }

std::vector<std::string_view> split_whitespace(std::string_view text) {
    std::vector<std::string_view> words;
    std::size_t pos = 0;
    while (pos < text.size()) {
        while (pos < text.size() && is_space(text[pos])) ++pos;
        const std::size_t start = pos;
        while (pos < text.size() && !is_space(text[pos])) ++pos;
        if (pos > start) words.push_back(text.substr(start, pos - start));
    }
    return words;
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

bool is_missing_token(std::string_view text) {
    text = trim(text);
    while (!text.empty() && (text.front() == '[' || text.front() == ']')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == '[' || text.back() == ']')) text.remove_suffix(1);
    static constexpr std::array<std::string_view, 9> tokens = {"",        "n/a", "na", "none",         "null",
                                                               "unknown", "-",   "--", "not supported"};
    return std::any_of(tokens.begin(), tokens.end(), [&](std::string_view token) { return iequals(text, token); });
}

std::vector<std::string_view> split(std::string_view text, char separator) {
    std::vector<std::string_view> pieces;
    for (;;) {
        const auto at = text.find(separator);
        pieces.push_back(text.substr(0, at));
        if (at == std::string_view::npos) return pieces;
        text.remove_prefix(at + 1);
    }
}

}  // namespace musatop::text
