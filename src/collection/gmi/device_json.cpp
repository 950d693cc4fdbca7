#include "musatop/collection/gmi/device_json.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <initializer_list>
#include <set>

#include <nlohmann/json.hpp>

#include "musatop/collection/gmi/values.hpp"
#include "musatop/util/text.hpp"

namespace musatop::gmi {
using namespace musatop::text;  // trim, case-insensitive matching, splitting
namespace {

using json = nlohmann::ordered_json;

Error invalid(std::string_view why) { return Error{"invalid GMI JSON: " + std::string(why)}; }

// First member, in document order, whose normalised key is one of `names`.
const json* find_member(const json& object, std::initializer_list<std::string_view> names) {
    if (!object.is_object()) return nullptr;
    for (auto it = object.begin(); it != object.end(); ++it)
        for (auto name : names)
            if (keys_match(it.key(), name)) return &*it;
    return nullptr;
}

const json& section(const json& object, std::string_view name) {
    static const json empty = json::object();
    const json* found = find_member(object, {name});
    return (found && found->is_object()) ? *found : empty;
}

// Strings and numbers become trimmed text; booleans, arrays, objects and null do not.
std::optional<std::string> raw_text(const json* value) {
    if (!value) return std::nullopt;
    if (value->is_string()) return value->get<std::string>();
    if (value->is_number()) return value->dump();
    return std::nullopt;
}

std::optional<std::string> text_field(const json* value) {
    const auto raw = raw_text(value);
    return raw ? clean_text(*raw) : std::nullopt;
}

std::optional<double> number_field(const json* value, std::string_view unit, bool allow_negative = false) {
    const auto raw = raw_text(value);
    return raw ? parse_number(*raw, unit, allow_negative) : std::nullopt;
}

std::optional<double> percent_field(const json* value) {
    const auto raw = raw_text(value);
    return raw ? parse_percent(*raw) : std::nullopt;
}

std::optional<std::int64_t> memory_field(const json* value) {
    const auto raw = raw_text(value);
    return raw ? parse_memory_bytes(*raw) : std::nullopt;
}

std::optional<std::int64_t> digits_value(std::string_view digits) {
    digits = trim(digits);
    if (digits.empty() || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (error != std::errc{} || end != digits.data() + digits.size()) return std::nullopt;
    return value;
}

std::optional<std::int64_t> index_field(const json* value) {
    if (!value || value->is_boolean()) return std::nullopt;
    if (value->is_number_integer()) {
        const auto number = value->get<std::int64_t>();
        return number >= 0 ? std::optional(number) : std::nullopt;
    }
    const auto raw = raw_text(value);
    return raw ? digits_value(*raw) : std::nullopt;
}

void read_power_limit(const json& readings, Device& device) {
    const json* raw = nullptr;
    bool found_current = false;
    for (const auto& [key, value] : readings.items()) {
        if (keys_match(key, "currentpowerlimit")) {
            raw = &value;
            found_current = true;
            break;
        }
    }
    if (!found_current) raw = find_member(readings, {"Power Limit"});

    const auto limit = number_field(raw, "W");
    if (limit && *limit > 0) {
        device.power_limit_w = limit;
    } else if (!raw || raw->is_null()) {
        device.power_limit_reason = "Current power limit field is missing from GMI";
    } else if (raw->is_string() && is_missing_token(raw->get<std::string>())) {
        device.power_limit_reason = "Current power limit is not reported by GMI";
    } else {
        device.power_limit_reason = "GMI returned an invalid current power limit";
    }
}

std::optional<std::int64_t> count_field(const json* value, std::string_view unit = {}) {
    const auto raw = raw_text(value);
    return raw ? parse_count(*raw, unit) : std::nullopt;
}

// "Max"/"Current" pairs of PCI > GPU Link Info; widths are "16x".
void read_link(const json& pci, Device& device) {
    const json& link = section(pci, "GPU Link Info");
    const json& generation = section(link, "PCIe Generation");
    device.pcie_generation_current = count_field(find_member(generation, {"Current"}));
    device.pcie_generation_max = count_field(find_member(generation, {"Max"}));
    const json& width = section(link, "Link Width");
    device.pcie_link_width_current = count_field(find_member(width, {"Current"}), "x");
    device.pcie_link_width_max = count_field(find_member(width, {"Max"}), "x");
}

// "Fan": {"Speed": {"Fan0": "75%", ...}} or {"Speed": "75%"}: the first known speed.
std::optional<double> fan_speed(const json& entry) {
    const json* speed = find_member(section(entry, "Fan"), {"Speed"});
    if (!speed) return std::nullopt;
    if (!speed->is_object()) return percent_field(speed);
    for (const auto& [key, value] : speed->items())
        if (const auto percent = percent_field(&value)) return percent;
    return std::nullopt;
}

// A section's "Current" member, or the member itself when GMI gives plain text.
std::optional<std::string> current_text(const json& entry, std::string_view name) {
    const json* found = find_member(entry, {name});
    if (found && found->is_object()) return text_field(find_member(*found, {"Current"}));
    return text_field(found);
}

void read_health_fields(const json& entry, Device& device) {
    read_link(section(entry, "PCI"), device);
    const json& utilization = section(entry, "Utilization");
    device.encoder_utilization_percent = percent_field(find_member(utilization, {"Encoder"}));
    device.decoder_utilization_percent = percent_field(find_member(utilization, {"Decoder"}));
    device.fan_speed_percent = fan_speed(entry);
    const json& max_clocks = section(entry, "Max Clocks");
    device.graphics_clock_max_mhz = number_field(find_member(max_clocks, {"Graphics"}), "MHz");
    device.memory_clock_max_mhz = number_field(find_member(max_clocks, {"Memory"}), "MHz");
    device.performance_state = text_field(find_member(entry, {"Performance State"}));
    device.ecc_mode = current_text(entry, "Ecc Mode");
    const json& retired = section(entry, "Retired Pages");
    device.retired_pages_single_bit = count_field(find_member(retired, {"Single Bit ECC"}));
    device.retired_pages_double_bit = count_field(find_member(retired, {"Double Bit ECC"}));
    const auto pending = raw_text(find_member(retired, {"Pending Page Blacklist", "Pending"}));
    device.retired_pages_pending = pending ? parse_yes_no(*pending) : std::nullopt;
    device.serial_number = text_field(find_member(entry, {"Serial Number"}));
    device.bios_version = text_field(find_member(entry, {"MTBios Version", "VBIOS Version"}));
}

Device read_device(const json& entry, std::int64_t index) {
    Device device;
    device.index = index;
    device.uuid = text_field(find_member(entry, {"GPU UUID", "UUID"}));
    device.name = text_field(find_member(entry, {"Product Name", "Name"}));
    device.bus_id = text_field(find_member(section(entry, "PCI"), {"Bus ID"}));
    const json& utilization = section(entry, "Utilization");
    device.gpu_utilization_percent = percent_field(find_member(utilization, {"Gpu"}));
    device.memory_utilization_percent = percent_field(find_member(utilization, {"Memory"}));
    const json& memory = section(entry, "FB Memory Usage");
    device.memory_used_bytes = memory_field(find_member(memory, {"Used"}));
    device.memory_total_bytes = memory_field(find_member(memory, {"Total"}));
    device.memory_free_bytes = memory_field(find_member(memory, {"Free"}));
    device.temperature_c = number_field(find_member(section(entry, "Temperature"), {"GPU Current Temp"}), "C", true);
    const json& power = section(entry, "Power Readings");
    device.power_draw_w = number_field(find_member(power, {"Power Draw"}), "W");
    read_power_limit(power, device);
    const json& clocks = section(entry, "Clocks");
    device.graphics_clock_mhz = number_field(find_member(clocks, {"Graphics"}), "MHz");
    device.memory_clock_mhz = number_field(find_member(clocks, {"Memory"}), "MHz");
    read_health_fields(entry, device);
    return device;
}

// "Attached GPUs" when it is a whole count no smaller than the list: a larger one
// means GMI knows of cards it could not query (a health finding, not an error).
std::optional<std::int64_t> attached_count(const json& attached, std::size_t listed) {
    std::optional<std::int64_t> value;
    if (attached.is_number_integer()) value = attached.get<std::int64_t>();
    else if (attached.is_string()) value = digits_value(attached.get<std::string>());
    if (!value || *value < 0 || static_cast<std::size_t>(*value) < listed) return std::nullopt;
    return value;
}

}  // namespace

Result<DeviceQuery> parse_device_json(std::string_view text) {
    json document;
    try {
        document = json::parse(text.begin(), text.end());
    } catch (const json::exception& error) {  // parse errors, and numbers out of range (1e400)
        return invalid(error.what());
    }
    if (!document.is_object()) return invalid("expected an object");
    const json* gpus = find_member(document, {"GPU", "GPUs"});
    if (!gpus || !gpus->is_array()) return invalid("GPU must be an explicit list");
    DeviceQuery query;
    if (const json* attached = find_member(document, {"Attached GPUs"})) {
        query.attached_gpus = attached_count(*attached, gpus->size());
        if (!query.attached_gpus) return invalid("Attached GPUs does not match the GPU list");
    }
    std::set<std::int64_t> indices;
    std::set<std::string> uuids;
    for (const json& entry : *gpus) {
        if (!entry.is_object()) return invalid("GPU entry must be an object");
        const auto index = index_field(find_member(entry, {"Index"}));
        if (!index) return invalid("GPU Index must be a nonnegative integer");
        if (!indices.insert(*index).second) return invalid("duplicate GPU Index " + std::to_string(*index));
        Device device = read_device(entry, *index);
        if (device.uuid && !uuids.insert(fold_case(*device.uuid)).second) return invalid("duplicate GPU UUID");
        query.devices.push_back(std::move(device));
    }
    query.driver_version = text_field(find_member(document, {"Driver Version"}));
    return query;
}

}  // namespace musatop::gmi
