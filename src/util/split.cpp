#include "musatop/util/split.hpp"

namespace musatop {
namespace {
bool is_separator(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
}  // namespace

std::vector<std::string_view> split_whitespace(std::string_view text) {
    std::vector<std::string_view> words;
    std::size_t pos = 0;
    while (pos < text.size()) {
        while (pos < text.size() && is_separator(text[pos])) ++pos;
        const std::size_t start = pos;
        while (pos < text.size() && !is_separator(text[pos])) ++pos;
        if (pos > start) words.push_back(text.substr(start, pos - start));
    }
    return words;
}

}  // namespace musatop
