#include "musatop/collection/gmi/summary_table.hpp"

#include <set>

#include "musatop/collection/gmi/text_lines.hpp"
#include "musatop/collection/gmi/values.hpp"
#include "musatop/util/text.hpp"

namespace musatop::gmi {
using namespace musatop::text;  // trim, case-insensitive matching, splitting
namespace {

bool is_version_char(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '.' ||
           c == '+' || c == '-';
}

// Finds "mthreads-gmi" followed by separators, an optional "version" and a token that
// starts with a digit.
std::optional<std::string> version_after_tool_name(std::string_view line) {
    static constexpr std::string_view tool = "mthreads-gmi";
    for (std::size_t i = 0; i + tool.size() <= line.size(); ++i) {
        if (!starts_with_icase(line.substr(i), tool)) continue;
        std::size_t j = i + tool.size();
        const auto skip = [&](std::string_view chars) {
            while (j < line.size() && chars.find(line[j]) != std::string_view::npos) ++j;
        };
        const std::size_t before_separator = j;
        skip(" \t:");
        if (j == before_separator) continue;
        if (starts_with_icase(line.substr(j), "version")) {
            j += 7;
            skip(" \t:");
        }
        if (j >= line.size() || line[j] < '0' || line[j] > '9') continue;
        const std::size_t start = j;
        while (j < line.size() && is_version_char(line[j])) ++j;
        return std::string(line.substr(start, j - start));
    }
    return std::nullopt;
}

std::optional<std::string> driver_after_label(std::string_view line) {
    static constexpr std::string_view label = "Driver Version";
    for (std::size_t i = 0; i + label.size() <= line.size(); ++i) {
        if (!starts_with_icase(line.substr(i), label)) continue;
        auto rest = trim(line.substr(i + label.size()));
        if (rest.empty() || rest.front() != ':') return std::nullopt;
        const auto words = split_whitespace(rest.substr(1));
        if (words.empty()) return std::nullopt;
        auto value = words.front();
        while (!value.empty() && value.back() == '|') value.remove_suffix(1);
        return clean_text(value);
    }
    return std::nullopt;
}

std::vector<std::string_view> split_columns(std::string_view line) {
    std::vector<std::string_view> columns;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= line.size(); ++i) {
        if (i == line.size() || line[i] == '|') {
            columns.push_back(line.substr(start, i - start));
            start = i + 1;
        }
    }
    return columns;
}

bool is_device_header(std::string_view line) {
    const auto columns = split_columns(line);
    if (columns.size() < 3) return false;
    const auto first = split_whitespace(columns[0]);
    return !first.empty() && first[0] == "ID" && contains_icase(columns[0], "Name") &&
           contains_icase(columns[1], "PCIe");
}

// "662MiB(16384MiB)": used may exceed total (seen on broken IOMMU setups); keep both.
void read_memory_pair(std::string_view text, Device& device) {
    const auto open = text.find('(');
    if (open == std::string_view::npos || text.empty() || text.back() != ')') return;
    device.memory_used_bytes = parse_memory_bytes(text.substr(0, open));
    device.memory_total_bytes = parse_memory_bytes(text.substr(open + 1, text.size() - open - 2));
    if (device.memory_used_bytes && device.memory_total_bytes &&
        *device.memory_used_bytes <= *device.memory_total_bytes)
        device.memory_free_bytes = *device.memory_total_bytes - *device.memory_used_bytes;
}

// "4x(16x)": current(max) lanes.
void read_lanes(std::string_view text, Device& device) {
    text = trim(text);
    const auto open = text.find('(');
    if (open == std::string_view::npos || text.back() != ')') return;
    device.pcie_link_width_current = parse_count(text.substr(0, open), "x");
    device.pcie_link_width_max = parse_count(text.substr(open + 1, text.size() - open - 2), "x");
}

// GPU line 2: "Physical      P0     |16x(16x)            |48C   YES"; the Perf word
// exists in the wide layout only (its header line says "Perf").
void read_second_line(const std::vector<std::string_view>& columns, bool has_perf, Device& device) {
    const auto third = split_whitespace(columns.back());
    if (!third.empty()) device.temperature_c = parse_number(third[0], "C", true);
    if (columns.size() == 3) read_lanes(columns[1], device);
    const auto first = split_whitespace(columns[0]);
    if (has_perf && first.size() >= 2) device.performance_state = clean_text(first.back());
}

Error bad_row() { return Error{"GMI summary device table contains an unrecognized row"}; }

}  // namespace

BannerVersions parse_banner_versions(std::string_view summary) {
    BannerVersions versions;
    for (auto line : split_lines(summary)) {
        if (!contains_icase(line, "Driver Version")) continue;
        versions.gmi_version = version_after_tool_name(line);
        versions.driver_version = driver_after_label(line);
        break;
    }
    return versions;
}

std::optional<std::string> parse_version_output(std::string_view text) {
    for (auto line : split_lines(text))
        if (auto version = version_after_tool_name(line)) return version;
    return std::nullopt;
}

Result<std::vector<Device>> parse_summary_devices(std::string_view summary) {
    const std::string text = strip_ansi_csi(summary);
    const auto lines = split_lines(text);
    std::size_t row = 0;
    while (row < lines.size() && !is_device_header(lines[row])) ++row;
    if (row == lines.size()) return Error{"GMI summary has no device table"};
    const bool has_perf = row + 1 < lines.size() && contains_icase(lines[row + 1], "Perf");
    ++row;
    // Header lines 2 and 3, then the +---+ rule that opens the GPU blocks.
    while (row < lines.size() && !is_rule_line(lines[row])) ++row;
    if (row == lines.size()) return Error{"GMI summary device table is truncated"};

    std::vector<Device> devices;
    std::set<std::int64_t> indices;
    Device* current = nullptr;
    int line_in_block = 0;
    for (++row; row < lines.size(); ++row) {
        const auto line = lines[row];
        if (trim(line).empty() || trim(line).front() == '-') {
            return devices;  // the closing rule ends the table
        }
        if (trim(line).front() == '+') {
            current = nullptr;
            continue;
        }
        const auto columns = split_columns(line);
        if (columns.size() < 2 || columns.size() > 3) return bad_row();
        const auto first = split_whitespace(columns[0]);
        const auto third = split_whitespace(columns.back());
        if (!first.empty() && all_digits(first[0]) && first[0].size() < 10 && columns.size() == 3 &&
            line.front() != ' ' && line.front() != '\t') {
            Device device;
            device.index = std::stoll(std::string(first[0]));
            if (!indices.insert(device.index).second) return bad_row();
            const auto name = trim(columns[0]).substr(first[0].size());
            device.name = clean_text(name);
            device.bus_id = clean_text(columns[1]);
            if (third.size() < 2) return bad_row();
            device.gpu_utilization_percent = parse_percent(third[0]);
            read_memory_pair(third[1], device);
            device.power_limit_reason = "GMI summary table has no power readings";
            devices.push_back(std::move(device));
            current = &devices.back();
            line_in_block = 1;
            continue;
        }
        if (!current) return bad_row();
        ++line_in_block;
        if (line_in_block == 2) read_second_line(columns, has_perf, *current);
        if (line_in_block == 3) current->ecc_mode = clean_text(trim(columns.back()));  // "On-die, EDC"
    }
    return Error{"GMI summary device table is truncated"};
}

}  // namespace musatop::gmi
