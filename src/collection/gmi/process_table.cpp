#include "musatop/collection/gmi/process_table.hpp"

#include <set>
#include <utility>

#include "musatop/collection/gmi/text_lines.hpp"
#include "musatop/collection/gmi/values.hpp"
#include "musatop/util/text.hpp"

namespace musatop::gmi {
using namespace musatop::text;  // trim, case-insensitive matching, splitting
namespace {

bool is_word_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           static_cast<unsigned char>(c) >= 0x80;
}

// Offset just past a "Processes:" marker (word boundary before, spaces before the colon).
std::optional<std::size_t> find_marker(std::string_view text) {
    static constexpr std::string_view word = "processes";
    for (std::size_t i = 0; i + word.size() <= text.size(); ++i) {
        if (i > 0 && is_word_char(text[i - 1])) continue;
        if (!starts_with_icase(text.substr(i), word)) continue;
        std::size_t j = i + word.size();
        while (j < text.size() && (text[j] == ' ' || text[j] == '\t')) ++j;
        if (j < text.size() && text[j] == ':') return j + 1;
    }
    return std::nullopt;
}

bool header_has_word(std::string_view header, std::string_view wanted) {
    std::size_t pos = 0;
    while (pos < header.size()) {
        while (pos < header.size() && !is_word_char(header[pos])) ++pos;
        const std::size_t start = pos;
        while (pos < header.size() && is_word_char(header[pos])) ++pos;
        const auto word = header.substr(start, pos - start);
        if (word.size() == wanted.size() && starts_with_icase(word, wanted)) return true;
    }
    return false;
}

bool header_complete(std::string_view header) {
    return header_has_word(header, "ID") && header_has_word(header, "PID") && header_has_word(header, "Process") &&
           header_has_word(header, "Memory");
}

bool is_empty_message(std::string_view line) {
    static constexpr std::string_view message = "No running processes found";
    if (!starts_with_icase(line, message)) return false;
    auto rest = trim(line.substr(message.size()));
    return rest.empty() || rest == "." || rest == "!";
}

// "<digits> <digits>" at the start of a line: a data row.
bool looks_like_data_row(std::string_view line) {
    const auto words = split_whitespace(line);
    return words.size() >= 2 && all_digits(words[0]) && all_digits(words[1]);
}

// A number glued to a unit that contains B: "1024MiB", "1.5GiB", "512B".
bool is_memory_with_unit(std::string_view token) {
    std::size_t pos = 0;
    while (pos < token.size() && token[pos] >= '0' && token[pos] <= '9') ++pos;
    const bool has_int = pos > 0;
    if (pos < token.size() && token[pos] == '.') {
        const std::size_t frac = ++pos;
        while (pos < token.size() && token[pos] >= '0' && token[pos] <= '9') ++pos;
        if (!has_int && pos == frac) return false;
    } else if (!has_int) {
        return false;
    }
    auto unit = token.substr(pos);
    if (unit.empty() || (unit.back() != 'B' && unit.back() != 'b')) return false;
    unit.remove_suffix(1);
    if (!unit.empty() && (unit.back() == 'i' || unit.back() == 'I')) unit.remove_suffix(1);
    if (unit.empty()) return true;
    static constexpr std::string_view prefixes = "KMGTPEkmgtpe";
    return unit.size() == 1 && prefixes.find(unit[0]) != std::string_view::npos;
}

bool is_unknown_memory(std::string_view token) {
    return (token.size() == 3 && starts_with_icase(token, "N/A")) || token == "--";
}

struct Row {
    std::int64_t device_index;
    std::int64_t pid;
    std::string_view command;
    std::string_view memory;
};

std::optional<std::int64_t> parse_id(std::string_view digits) {
    if (!all_digits(digits) || digits.size() > 18) return std::nullopt;
    std::int64_t value = 0;
    for (char c : digits) value = value * 10 + (c - '0');
    return value;
}

// <gpu> <pid> <command...> <memory>, where memory may span two words ("512 MiB",
// "Not Supported") and the command is as short as the memory allows.
std::optional<Row> match_row(std::string_view line) {
    const auto words = split_whitespace(line);
    if (words.size() < 4) return std::nullopt;
    const auto gpu = parse_id(words[0]);
    const auto pid = parse_id(words[1]);
    if (!gpu || !pid) return std::nullopt;
    const char* line_end = line.data() + line.size();
    const auto command_between = [&](std::string_view first, std::string_view last_exclusive) {
        const char* begin = first.data();
        return trim(std::string_view(begin, static_cast<std::size_t>(last_exclusive.data() - begin)));
    };
    const std::size_t n = words.size();
    if (n >= 5) {
        const auto number = words[n - 2];
        const auto unit = words[n - 1];
        const bool unit_only = !unit.empty() && (unit[0] < '0' || unit[0] > '9') && unit[0] != '.';
        const bool spaced_unit = unit_only && is_memory_with_unit(std::string(number) + std::string(unit));
        const bool not_supported = starts_with_icase(number, "Not") && number.size() == 3 &&
                                   starts_with_icase(unit, "Supported") && unit.size() == 9;
        if (spaced_unit || not_supported)
            return Row{*gpu, *pid, command_between(words[2], number),
                       std::string_view(number.data(), static_cast<std::size_t>(line_end - number.data()))};
    }
    const auto memory = words[n - 1];
    if (is_memory_with_unit(memory) || is_unknown_memory(memory))
        return Row{*gpu, *pid, command_between(words[2], memory), memory};
    return std::nullopt;
}

std::string_view strip_box(std::string_view line) {
    line = trim(line);
    while (!line.empty() && line.front() == '|') line.remove_prefix(1);
    while (!line.empty() && line.back() == '|') line.remove_suffix(1);
    return trim(line);
}

}  // namespace

Result<std::vector<ProcessRow>> parse_process_table(std::string_view summary) {
    const std::string text = strip_ansi_csi(summary);
    const auto marker = find_marker(text);
    if (!marker) return Error{"GMI process table is missing"};

    std::string header;
    bool have_header = false;
    bool explicit_empty = false;
    bool ends_with_rule = false;
    bool framed = false;  // the table has rules, so it must also end with one
    std::vector<ProcessRow> rows;
    std::set<std::pair<std::int64_t, std::int64_t>> seen;
    for (auto raw : split_lines(std::string_view(text).substr(*marker))) {
        const auto line = strip_box(raw);
        if (line.empty()) continue;
        if (is_rule_line(raw)) {
            framed = framed || have_header;
            ends_with_rule = true;
            continue;
        }
        ends_with_rule = false;
        if (is_empty_message(line)) {
            explicit_empty = true;
            continue;
        }
        // GMI's own words where the rows go ("Failed to query running processes",
        // GMI 2.3.2 on S5000 hosts in containers): its reason, not a parse error.
        if (starts_with_icase(line, "Failed to") || starts_with_icase(line, "Error"))
            return Error{"GMI could not list the processes: " + clean_text(line).value_or("")};
        if (!have_header) {
            if (looks_like_data_row(line)) return Error{"GMI process table has no recognized column header"};
            header.append(line).push_back(' ');
            have_header = header_complete(header);
            continue;
        }
        if (line == "Usage") continue;
        const auto row = match_row(line);
        if (!row) return Error{"GMI process table contains an unrecognized row"};
        if (row->pid <= 0 || row->pid > 0x7fffffff || !seen.emplace(row->device_index, row->pid).second)
            return Error{"GMI process table contains an invalid or duplicate process"};
        rows.push_back(ProcessRow{row->device_index, row->pid, clean_text(row->command),
                                  parse_memory_bytes(row->memory, MemoryUnit::required)});
    }
    if (!have_header) return Error{"GMI process table has no recognized column header"};
    if (explicit_empty && !rows.empty()) return Error{"GMI process table contradicts its empty-process message"};
    if (!explicit_empty && rows.empty())
        return Error{"GMI process table ended without rows or an empty-process message"};
    if (framed && !ends_with_rule) return Error{"GMI process table is truncated: no closing rule after the last row"};
    return rows;
}

}  // namespace musatop::gmi
