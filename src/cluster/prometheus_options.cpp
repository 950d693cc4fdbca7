// The checks of Prometheus mode's store options, before any request: a selector or
// a header file that the store would refuse is a usage error naming what is wrong.
#include <cctype>

#include "musatop/cluster/prometheus_source.hpp"
#include "musatop/util/text.hpp"

namespace musatop::cluster {
namespace {

bool name_char(char c, bool first) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_' ||
           (!first && std::isdigit(static_cast<unsigned char>(c)));
}

void skip_spaces(std::string_view text, std::size_t& at) {
    while (at < text.size() && text[at] == ' ') ++at;
}

}  // namespace

bool valid_label_name(std::string_view name) {
    if (name.empty()) return false;
    for (std::size_t i = 0; i < name.size(); ++i)
        if (!name_char(name[i], i == 0)) return false;
    return true;
}

std::optional<std::string> selector_problem(std::string_view text) {
    std::size_t at = 0;
    for (;;) {
        skip_spaces(text, at);
        const std::size_t start = at;
        while (at < text.size() && name_char(text[at], at == start)) ++at;
        if (at == start) return "expected a label name at column " + std::to_string(start + 1);
        skip_spaces(text, at);
        const std::string_view rest = text.substr(at);
        const std::size_t op = rest.starts_with("=~") || rest.starts_with("!~") || rest.starts_with("!=") ? 2
                               : rest.starts_with("=")                                                    ? 1
                                                                                                          : 0;
        if (op == 0) return "expected =, !=, =~ or !~ at column " + std::to_string(at + 1);
        at += op;
        skip_spaces(text, at);
        if (at >= text.size() || text[at] != '"') return "expected a quoted value at column " + std::to_string(at + 1);
        for (++at; at < text.size() && text[at] != '"'; ++at)
            if (text[at] == '\\') ++at;
        if (at >= text.size()) return std::string("a value is not closed by a quote");
        ++at;
        skip_spaces(text, at);
        if (at == text.size()) return std::nullopt;
        if (text[at] != ',') return "expected a comma at column " + std::to_string(at + 1);
        ++at;
    }
}

Result<std::vector<std::pair<std::string, std::string>>> parse_header_lines(std::string_view text) {
    std::vector<std::pair<std::string, std::string>> headers;
    int number = 0;
    for (const auto raw : text::split(text, '\n')) {
        ++number;
        const std::string_view line = text::trim(raw);
        if (line.empty() || line.front() == '#') continue;
        const auto colon = line.find(':');
        const std::string_view name = text::trim(line.substr(0, std::min(colon, line.size())));
        bool token = !name.empty();
        for (char c : name) token = token && (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_');
        if (colon == std::string_view::npos || !token)
            return Error{"line " + std::to_string(number) + " is not 'Name: value'"};
        const std::string_view value = text::trim(line.substr(colon + 1));
        for (char c : value)
            if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
                return Error{"line " + std::to_string(number) + ": the value holds a control character"};
        headers.emplace_back(std::string(name), std::string(value));
    }
    return headers;
}

}  // namespace musatop::cluster
