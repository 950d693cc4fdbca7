// `gpuNN/status` and the directory names (spec §4, §1, §7.2, §7.4).
#include <array>
#include <charconv>

#include "musatop/collection/driver/driver_parse.hpp"
#include "musatop/util/text.hpp"

namespace musatop::driver {
namespace {

std::optional<std::int64_t> whole_number(std::string_view text) {
    text = text::trim(text);
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc{} || end != text.data() + text.size() || value < 0) return std::nullopt;
    return value;
}

// "42%" or "42 %"; a value over 100 is not a percentage and stays unknown.
std::optional<double> percent(std::string_view text) {
    text = text::trim(text);
    if (!text.empty() && text.back() == '%') text = text::trim(text.substr(0, text.size() - 1));
    const auto value = whole_number(text);
    if (!value || *value > 100) return std::nullopt;
    return static_cast<double>(*value);
}

bool ends_with(std::string_view text, std::string_view tail) {
    return text.size() >= tail.size() && text.substr(text.size() - tail.size()) == tail;
}

// "NOT RESPONDING (Poll failing)" → the health word and the reason inside the brackets.
void firmware(DriverStatus& status, std::string_view value) {
    const auto open = value.rfind(" (");
    if (open != std::string_view::npos && ends_with(value, ")")) {
        status.firmware_status = std::string(text::trim(value.substr(0, open)));
        status.firmware_reason = std::string(value.substr(open + 2, value.size() - open - 3));
        return;
    }
    status.firmware_status = std::string(value);
}

// One "key: value" line; false when the key means nothing to us.
bool read_line(DriverStatus& status, std::string_view key, std::string_view value) {
    if (key == "Driver Status") return status.driver_status = std::string(value), true;
    if (key == "Device ID") return status.device_id = std::string(value), true;
    if (key == "Firmware Status") return firmware(status, value), true;
    for (const std::string_view tail : {" Event Count", " Error Count"})
        if (ends_with(key, tail)) {
            const auto count = whole_number(value);
            if (count) status.counters.push_back({std::string(key.substr(0, key.size() - tail.size())), *count});
            return count.has_value();
        }
    if (key == "Server Errors" || key == "Sercer Errors") {  // "Sercer": the G1/G2 spelling
        const auto count = whole_number(value);
        if (count) status.counters.push_back({"Server Errors", *count});
        return count.has_value();
    }
    for (const std::string_view tail : {" Utilisation", " Utilization"})
        if (ends_with(key, tail)) {
            const auto label = text::trim(key.substr(0, key.size() - tail.size()));
            if (label == "GPU Overall" || label == "GPU") status.overall_utilization_percent = percent(value);
            else status.engines.push_back({std::string(label), percent(value)});
            return true;
        }
    return false;
}

}  // namespace

Result<DriverStatus> parse_status(std::string_view text) {
    DriverStatus status;
    bool any = false;
    while (!text.empty()) {
        const auto end = std::min(text.find('\n'), text.size());
        const std::string_view line = text::trim(text.substr(0, end));  // TABs, spaces, a CR
        text.remove_prefix(std::min(end + 1, text.size()));
        const auto colon = line.find(':');
        if (colon == std::string_view::npos) continue;
        any = read_line(status, text::trim(line.substr(0, colon)), text::trim(line.substr(colon + 1))) || any;
    }
    if (!any) return Error{"no status line in the file"};
    return status;
}

std::optional<int> gpu_directory_number(std::string_view name) {
    if (name.size() < 5 || name.size() > 7 || name.substr(0, 3) != "gpu") return std::nullopt;
    int value = 0;
    for (const char c : name.substr(3)) {
        const bool digit = c >= '0' && c <= '9', hex = c >= 'a' && c <= 'f';
        if (!digit && !hex) return std::nullopt;
        value = value * 16 + (digit ? c - '0' : c - 'a' + 10);
    }
    return value;
}

namespace {

// domain:bus:device.function as numbers; none unless it has that shape.
std::optional<std::array<unsigned long, 4>> pci_parts(std::string_view text) {
    text = text::trim(text);
    std::array<unsigned long, 4> parts{};
    const char separators[] = {':', ':', '.'};
    for (std::size_t i = 0; i < 4; ++i) {
        const auto end = i < 3 ? text.find(separators[i]) : text.size();
        if (end == std::string_view::npos || end == 0) return std::nullopt;
        const auto [stop, error] = std::from_chars(text.data(), text.data() + end, parts[i], 16);
        if (error != std::errc{} || stop != text.data() + end) return std::nullopt;
        text.remove_prefix(std::min(end + 1, text.size()));
    }
    return parts;
}

}  // namespace

bool same_pci_function(std::string_view a, std::string_view b) {
    const auto x = pci_parts(a), y = pci_parts(b);
    return x && y && *x == *y;
}

std::optional<int> misc_device_number(std::string_view devname) {
    devname = text::trim(devname);
    if (!devname.starts_with("mtgpu.")) return std::nullopt;
    const auto number = whole_number(devname.substr(6));
    if (!number || *number > 1'000'000) return std::nullopt;
    return static_cast<int>(*number);
}

}  // namespace musatop::driver
