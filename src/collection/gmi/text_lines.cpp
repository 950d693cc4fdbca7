#include "musatop/collection/gmi/text_lines.hpp"

#include <algorithm>

#include "musatop/util/text.hpp"

namespace musatop::gmi {
using text::split_lines;
using text::starts_with_icase;
using text::trim;

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
