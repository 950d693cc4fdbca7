#include "musatop/output/json_input.hpp"

#include <charconv>
#include <cmath>
#include <ctime>
#include <limits>

#include <nlohmann/json.hpp>

#include "json_fields.hpp"
#include "musatop/util/clock.hpp"

namespace musatop {
namespace {

using json = nlohmann::json;

struct Invalid {
    std::string message;
};

// Reads `key` of `object`; absent and null are both "unknown".
const json* member(const json& object, const char* key) {
    const auto it = object.find(key);
    return it == object.end() || it->is_null() ? nullptr : &*it;
}

std::optional<std::string> text(const json& object, const char* key) {
    const json* value = member(object, key);
    if (!value) return std::nullopt;
    if (!value->is_string()) throw Invalid{std::string(key) + " is not a string"};
    return value->get<std::string>();
}

std::optional<double> real(const json& object, const char* key) {
    const json* value = member(object, key);
    if (!value) return std::nullopt;
    if (!value->is_number()) throw Invalid{std::string(key) + " is not a number"};
    const double number = value->get<double>();
    if (!std::isfinite(number)) throw Invalid{std::string(key) + " is not finite"};
    return number;
}

std::optional<std::int64_t> integer(const json& object, const char* key) {
    const json* value = member(object, key);
    if (!value) return std::nullopt;
    if (!value->is_number_integer()) throw Invalid{std::string(key) + " is not an integer"};
    if (value->is_number_unsigned() && value->get<std::uint64_t>() > std::numeric_limits<std::int64_t>::max())
        throw Invalid{std::string(key) + " is out of range"};
    return value->get<std::int64_t>();
}

std::optional<bool> boolean(const json& object, const char* key) {
    const json* value = member(object, key);
    if (!value) return std::nullopt;
    if (!value->is_boolean()) throw Invalid{std::string(key) + " is not true or false"};
    return value->get<bool>();
}

// A list of strings; absent (a document written before the key existed) is empty.
std::vector<std::string> texts(const json& object, const char* key) {
    const json* value = member(object, key);
    if (!value) return {};
    if (!value->is_array()) throw Invalid{std::string(key) + " is not a list"};
    std::vector<std::string> out;
    for (const auto& item : *value) {
        if (!item.is_string()) throw Invalid{std::string(key) + " holds something other than text"};
        out.push_back(item.get<std::string>());
    }
    return out;
}

std::int64_t required_integer(const json& object, const char* key) {
    const auto value = integer(object, key);
    if (!value) throw Invalid{std::string("missing ") + key};
    return *value;
}

bool flag(const json& object, const char* key) {
    const json* value = member(object, key);
    if (!value || !value->is_boolean()) throw Invalid{std::string(key) + " is not true or false"};
    return value->get<bool>();
}

std::optional<WallTime> time(const json& object, const char* key) {
    const auto value = text(object, key);
    if (!value) return std::nullopt;
    const auto parsed = parse_iso8601(*value);
    if (!parsed) throw Invalid{std::string(key) + " is not an ISO 8601 time"};
    return parsed;
}

const json& array(const json& object, const char* key) {
    const json* value = member(object, key);
    if (!value || !value->is_array()) throw Invalid{std::string(key) + " is not a list"};
    return *value;
}

template <typename Row, std::size_t N>
Row row_from(const json& object, const std::array<json_fields::Field<Row>, N>& fields, const char* what) {
    if (!object.is_object()) throw Invalid{std::string("a ") + what + " is not an object"};
    Row row;
    for (const auto& field : fields)
        std::visit(
            [&](auto member) {
                auto& value = row.*member;
                using Value = std::decay_t<decltype(value)>;
                if constexpr (std::is_same_v<Value, std::optional<double>>) {
                    value = real(object, field.key);
                } else if constexpr (std::is_same_v<Value, std::int64_t>) {
                    value = required_integer(object, field.key);
                } else if constexpr (std::is_same_v<Value, std::optional<std::int64_t>>) {
                    value = integer(object, field.key);
                } else if constexpr (std::is_same_v<Value, std::optional<bool>>) {
                    value = boolean(object, field.key);
                } else if constexpr (std::is_same_v<Value, std::vector<std::string>>) {
                    value = texts(object, field.key);
                } else {
                    value = text(object, field.key);
                }
            },
            field.member);
    return row;
}

ProcessStatus status_from(const std::optional<std::string>& name) {
    for (auto status : {ProcessStatus::ok, ProcessStatus::access_denied, ProcessStatus::exited, ProcessStatus::unverified})
        if (name && *name == to_string(status)) return status;
    throw Invalid{"process status is not ok, access_denied, exited or unverified"};
}

GpuProcess process_from(const json& p) {
    GpuProcess out = row_from(p, json_fields::kProcess, "process");
    out.status = status_from(text(p, "status"));
    out.attribution = row_from(p, json_fields::kAttribution, "process");
    return out;
}

DeviceSource source_from(const std::optional<std::string>& name) {
    if (!name) return DeviceSource::none;
    for (auto source : {DeviceSource::gmi_json, DeviceSource::gmi_summary, DeviceSource::demo})
        if (*name == to_string(source)) return source;
    throw Invalid{"device_source is not gmi-json, gmi-summary or demo"};
}

int digits(std::string_view text, std::size_t at, std::size_t count) {
    int value = 0;
    if (at + count > text.size()) return -1;
    const auto [end, error] = std::from_chars(text.data() + at, text.data() + at + count, value);
    return error == std::errc{} && end == text.data() + at + count ? value : -1;
}

}  // namespace

std::optional<WallTime> parse_iso8601(std::string_view s) {
    // YYYY-MM-DDTHH:MM:SS[.ffffff](+00:00|Z)
    if (s.size() < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':') return std::nullopt;
    std::tm t{};
    const int year = digits(s, 0, 4), month = digits(s, 5, 2), day = digits(s, 8, 2);
    const int hour = digits(s, 11, 2), minute = digits(s, 14, 2), second = digits(s, 17, 2);
    if (year < 1970 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60 ||
        hour < 0 || minute < 0 || second < 0)
        return std::nullopt;
    std::size_t at = 19;
    long micros = 0;
    if (s[at] == '.') {
        std::size_t end = at + 1;
        while (end < s.size() && s[end] >= '0' && s[end] <= '9') ++end;
        const std::size_t count = end - at - 1;
        if (count == 0 || count > 9) return std::nullopt;
        for (std::size_t i = 0; i < 6; ++i) micros = micros * 10 + (i < count ? s[at + 1 + i] - '0' : 0);
        at = end;
    }
    const std::string_view zone = s.substr(at);
    if (zone != "Z" && zone != "+00:00") return std::nullopt;  // render_json always writes UTC
    t.tm_year = year - 1900;
    t.tm_mon = month - 1;
    t.tm_mday = day;
    t.tm_hour = hour;
    t.tm_min = minute;
    t.tm_sec = second;
    const auto whole = wall_time_from_unix(static_cast<std::int64_t>(::timegm(&t)));
    if (!whole) return std::nullopt;
    return *whole + std::chrono::microseconds(micros);
}

Result<Snapshot> parse_json_snapshot(std::string_view text_in) {
    const json document = json::parse(text_in, nullptr, false);
    if (document.is_discarded()) return Error{"not JSON"};
    if (!document.is_object()) return Error{"not a JSON object"};
    try {
        const auto schema = integer(document, "schema_version");
        if (!schema) return Error{"no schema_version: not a musatop snapshot"};
        if (*schema != 1) return Error{"schema_version " + std::to_string(*schema) + " is not 1"};
        Snapshot s;
        const auto sampled = time(document, "sampled_at");
        if (!sampled) throw Invalid{"missing sampled_at"};
        s.sampled_at = *sampled;
        s.devices_sampled_at = time(document, "devices_sampled_at");
        s.processes_sampled_at = time(document, "processes_sampled_at");
        s.driver_version = text(document, "driver_version");
        s.gmi_version = text(document, "gmi_version");
        s.musa_version = text(document, "musa_version");
        s.musa_version_source = text(document, "musa_version_source");
        s.musa_version_reason = text(document, "musa_version_reason");
        const json* host = member(document, "host");
        if (!host || !host->is_object()) throw Invalid{"host is not an object"};
        s.host.hostname = text(*host, "hostname");
        s.host.cpu_percent = real(*host, "cpu_percent");
        s.host.memory_used_bytes = integer(*host, "memory_used_bytes");
        s.host.memory_total_bytes = integer(*host, "memory_total_bytes");
        for (const auto& d : array(document, "devices")) s.devices.push_back(row_from(d, json_fields::kDevice, "device"));
        for (const auto& p : array(document, "processes")) s.processes.push_back(process_from(p));
        s.devices_stale = flag(document, "devices_stale");
        s.processes_stale = flag(document, "processes_stale");
        for (const auto& e : array(document, "errors")) {
            if (!e.is_string()) throw Invalid{"an error is not a string"};
            s.errors.push_back(e.get<std::string>());
        }
        s.device_source = source_from(text(document, "device_source"));
        s.device_source_reason = text(document, "device_source_reason");
        s.processes_unverified_reason = text(document, "processes_unverified_reason");
        s.health = texts(document, "health");
        return s;
    } catch (const Invalid& invalid) {
        return Error{"invalid snapshot: " + invalid.message};
    } catch (const json::exception& error) {
        return Error{std::string("invalid snapshot: ") + error.what()};
    }
}

}  // namespace musatop
