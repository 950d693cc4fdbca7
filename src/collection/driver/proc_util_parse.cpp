// `gpuNN/proc_util`: per-process utilisation (spec §2, §7.3). The columns are taken
// from the header by name, since builds print different engines (CDM/TDM,
// CMP/TRANSFER, perhaps CE); the name is whatever follows the last number.
#include <charconv>

#include "musatop/collection/driver/driver_parse.hpp"
#include "musatop/util/text.hpp"

namespace musatop::driver {
namespace {

struct Token {
    std::string_view text;
    std::size_t end = 0;  // just past it in the line
};

std::vector<Token> tokens_of(std::string_view line) {
    std::vector<Token> out;
    std::size_t at = 0;
    while (at < line.size()) {
        while (at < line.size() && (line[at] == ' ' || line[at] == '\t')) ++at;
        const std::size_t start = at;
        while (at < line.size() && line[at] != ' ' && line[at] != '\t') ++at;
        if (at > start) out.push_back({line.substr(start, at - start), at});
    }
    return out;
}

std::optional<std::int64_t> number(std::string_view text, bool percent) {
    if (percent && !text.empty() && text.back() == '%') text.remove_suffix(1);
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc{} || end != text.data() + text.size() || value < 0) return std::nullopt;
    if (percent && value > 100) return std::nullopt;
    return value;
}

// The header: Pid, VPid, then Total (if any) and the engines, then PidName.
struct Columns {
    bool total = false;
    std::vector<std::string> engines;
};

std::optional<Columns> header_of(const std::vector<Token>& tokens) {
    if (tokens.size() < 3 || tokens[0].text != "Pid" || tokens[1].text != "VPid" || tokens.back().text != "PidName")
        return std::nullopt;
    Columns columns;
    for (std::size_t i = 2; i + 1 < tokens.size(); ++i) {
        if (i == 2 && tokens[i].text == "Total") columns.total = true;
        else columns.engines.emplace_back(tokens[i].text);
    }
    return columns;
}

std::optional<ProcessUtilization> row_of(std::string_view line, const Columns& columns) {
    const auto tokens = tokens_of(line);
    const std::size_t numbers = 2 + (columns.total ? 1 : 0) + columns.engines.size();
    if (tokens.size() < numbers) return std::nullopt;
    ProcessUtilization row;
    const auto pid = number(tokens[0].text, false), vpid = number(tokens[1].text, false);
    if (!pid || !vpid) return std::nullopt;
    row.pid = *pid, row.vpid = *vpid;
    std::size_t next = 2;
    if (columns.total) {
        const auto total = number(tokens[next++].text, true);
        if (!total) return std::nullopt;
        row.total_percent = static_cast<double>(*total);
    }
    for (const auto& engine : columns.engines) {
        const auto value = number(tokens[next++].text, true);
        if (!value) return std::nullopt;
        row.engines.push_back({engine, static_cast<double>(*value)});
    }
    row.name = std::string(text::trim(line.substr(tokens[numbers - 1].end)));
    return row;
}

}  // namespace

Result<std::vector<ProcessUtilization>> parse_proc_util(std::string_view text) {
    std::optional<Columns> columns;
    std::vector<ProcessUtilization> rows;
    while (!text.empty()) {
        const auto end = std::min(text.find('\n'), text.size());
        std::string_view line = text.substr(0, end);
        text.remove_prefix(std::min(end + 1, text.size()));
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (!columns) {
            columns = header_of(tokens_of(line));  // "device: (0, 128)" and anything else before it is skipped
            continue;
        }
        if (auto row = row_of(line, *columns)) rows.push_back(std::move(*row));
    }
    if (!columns) return Error{"no Pid/VPid/PidName header in the file"};
    return rows;
}

}  // namespace musatop::driver
