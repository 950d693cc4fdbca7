#include "musatop/output/json_input.hpp"

#include <charconv>
#include <cmath>
#include <ctime>
#include <limits>

#include <simdjson.h>

#include "json_fields.hpp"
#include "musatop/util/clock.hpp"

namespace musatop {
namespace {

// simdjson rather than nlohmann/json here: the cluster view reads every node's
// snapshot every refresh (256 nodes a second is 3.5 MB of JSON), and nlohmann's
// DOM took ~150 µs a document where simdjson takes ~5 (docs/PERFORMANCE.md).
using Element = simdjson::dom::element;
using Type = simdjson::dom::element_type;

struct Invalid {
    std::string message;
};

[[noreturn]] void invalid(std::string_view key, const char* what) { throw Invalid{std::string(key) + what}; }

// Absent and null are both "unknown".
std::optional<Element> member(simdjson::dom::object object, std::string_view key) {
    Element value;
    if (object.at_key(key).get(value) != simdjson::SUCCESS || value.is_null()) return std::nullopt;
    return value;
}

std::string text_of(Element value, std::string_view key) {
    std::string_view out;
    if (value.get_string().get(out) != simdjson::SUCCESS) invalid(key, " is not a string");
    return std::string(out);
}

double real_of(Element value, std::string_view key) {
    double out = 0;
    if (value.get_double().get(out) != simdjson::SUCCESS) invalid(key, " is not a number");
    if (!std::isfinite(out)) invalid(key, " is not finite");
    return out;
}

std::int64_t integer_of(Element value, std::string_view key) {
    if (value.type() == Type::UINT64) invalid(key, " is out of range");  // only above INT64_MAX
    std::int64_t out = 0;
    if (value.get_int64().get(out) != simdjson::SUCCESS) invalid(key, " is not an integer");
    return out;
}

bool boolean_of(Element value, std::string_view key) {
    bool out = false;
    if (value.get_bool().get(out) != simdjson::SUCCESS) invalid(key, " is not true or false");
    return out;
}

simdjson::dom::array array_of(Element value, std::string_view key) {
    simdjson::dom::array out;
    if (value.get_array().get(out) != simdjson::SUCCESS) invalid(key, " is not a list");
    return out;
}

std::vector<std::string> texts_of(Element value, std::string_view key) {
    std::vector<std::string> out;
    for (Element item : array_of(value, key)) {
        if (!item.is_string()) invalid(key, " holds something other than text");
        out.push_back(text_of(item, key));
    }
    return out;
}

std::optional<std::string> text(simdjson::dom::object object, std::string_view key) {
    const auto value = member(object, key);
    return value ? std::optional(text_of(*value, key)) : std::nullopt;
}

std::optional<double> real(simdjson::dom::object object, std::string_view key) {
    const auto value = member(object, key);
    return value ? std::optional(real_of(*value, key)) : std::nullopt;
}

std::optional<std::int64_t> integer(simdjson::dom::object object, std::string_view key) {
    const auto value = member(object, key);
    return value ? std::optional(integer_of(*value, key)) : std::nullopt;
}

bool flag(simdjson::dom::object object, std::string_view key) {
    const auto value = member(object, key);
    if (!value) invalid(key, " is not true or false");
    return boolean_of(*value, key);
}

std::optional<WallTime> time(simdjson::dom::object object, std::string_view key) {
    const auto value = text(object, key);
    if (!value) return std::nullopt;
    const auto parsed = parse_iso8601(*value);
    if (!parsed) invalid(key, " is not an ISO 8601 time");
    return parsed;
}

simdjson::dom::array array(simdjson::dom::object object, std::string_view key) {
    const auto value = member(object, key);
    if (!value) invalid(key, " is not a list");
    return array_of(*value, key);
}

simdjson::dom::object object_of(Element value, const char* what) {
    simdjson::dom::object out;
    if (value.get_object().get(out) != simdjson::SUCCESS) throw Invalid{std::string("a ") + what + " is not an object"};
    return out;
}

// Sets the table's member named `key`, if the table has one. Documents list the
// keys in table order (render_json writes them so), so the search starts after
// the previous match: one comparison a key, whatever the table's length.
template <typename Row, std::size_t N>
bool assign(const std::array<json_fields::Field<Row>, N>& fields, std::string_view key, Element value, Row& row,
            std::size_t& cursor, std::uint64_t& given) {
    static_assert(N <= 64);
    for (std::size_t step = 0; step < N; ++step) {
        const std::size_t at = (cursor + step) % N;
        if (key != fields[at].key) continue;
        cursor = at + 1;
        if (value.is_null()) return true;  // unknown: the row's default
        given |= std::uint64_t{1} << at;
        std::visit(
            [&](auto field) {
                auto& slot = row.*field;
                using Value = std::decay_t<decltype(slot)>;
                if constexpr (std::is_same_v<Value, std::optional<double>>) slot = real_of(value, key);
                else if constexpr (std::is_same_v<Value, std::int64_t> || std::is_same_v<Value, std::optional<std::int64_t>>)
                    slot = integer_of(value, key);
                else if constexpr (std::is_same_v<Value, std::optional<bool>>) slot = boolean_of(value, key);
                else if constexpr (std::is_same_v<Value, std::vector<std::string>>) slot = texts_of(value, key);
                else slot = text_of(value, key);
            },
            fields[at].member);
        return true;
    }
    return false;
}

// The table's required members (plain integers) must have been given, not null.
template <typename Row, std::size_t N>
void require(const std::array<json_fields::Field<Row>, N>& fields, std::uint64_t given) {
    for (std::size_t at = 0; at < N; ++at)
        if (std::holds_alternative<std::int64_t Row::*>(fields[at].member) && !(given >> at & 1))
            throw Invalid{std::string("missing ").append(fields[at].key)};
}

// Fills `out` where it lies (a Device is ~700 bytes: built in its vector's slot, not moved there).
void device_from(Element value, Device& out) {
    std::size_t cursor = 0;
    std::uint64_t given = 0;
    for (const auto field : object_of(value, "device")) assign(json_fields::kDevice, field.key, field.value, out, cursor, given);
    require(json_fields::kDevice, given);
}

ProcessStatus status_from(const std::optional<std::string>& name) {
    for (auto status : {ProcessStatus::ok, ProcessStatus::access_denied, ProcessStatus::exited, ProcessStatus::unverified})
        if (name && *name == to_string(status)) return status;
    throw Invalid{"process status is not ok, access_denied, exited or unverified"};
}

void process_from(Element value, GpuProcess& out) {
    std::size_t cursor = 0, owner_cursor = 0;
    std::uint64_t given = 0, owner_given = 0;
    std::optional<std::string> status;
    for (const auto field : object_of(value, "process")) {
        if (field.key == "status") {
            if (!field.value.is_null()) status = text_of(field.value, field.key);
        } else if (!assign(json_fields::kProcess, field.key, field.value, out, cursor, given)) {
            assign(json_fields::kAttribution, field.key, field.value, out.attribution, owner_cursor, owner_given);
        }
    }
    require(json_fields::kProcess, given);
    out.status = status_from(status);
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


Snapshot snapshot_from(simdjson::dom::object document) {
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
    const auto host_value = member(document, "host");
    if (!host_value || !host_value->is_object()) throw Invalid{"host is not an object"};
    const auto host = object_of(*host_value, "host");
    s.host.hostname = text(host, "hostname");
    s.host.cpu_percent = real(host, "cpu_percent");
    s.host.memory_used_bytes = integer(host, "memory_used_bytes");
    s.host.memory_total_bytes = integer(host, "memory_total_bytes");
    // Each list sized once: growing it would move every row (and malloc large blocks) three times.
    const auto devices = array(document, "devices");
    s.devices.reserve(devices.size());
    for (const Element d : devices) device_from(d, s.devices.emplace_back());
    const auto processes = array(document, "processes");
    s.processes.reserve(processes.size());
    for (const Element p : processes) process_from(p, s.processes.emplace_back());
    s.devices_stale = flag(document, "devices_stale");
    s.processes_stale = flag(document, "processes_stale");
    for (const Element e : array(document, "errors")) {
        if (!e.is_string()) throw Invalid{"an error is not a string"};
        s.errors.push_back(text_of(e, "errors"));
    }
    s.device_source = source_from(text(document, "device_source"));
    s.device_source_reason = text(document, "device_source_reason");
    s.processes_unverified_reason = text(document, "processes_unverified_reason");
    const auto health = member(document, "health");
    if (health) s.health = texts_of(*health, "health");
    return s;
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

struct JsonSnapshotReader::Parser {
    simdjson::dom::parser parser;
};

JsonSnapshotReader::JsonSnapshotReader() : parser_(std::make_unique<Parser>()) {}
JsonSnapshotReader::~JsonSnapshotReader() = default;
JsonSnapshotReader::JsonSnapshotReader(JsonSnapshotReader&&) noexcept = default;
JsonSnapshotReader& JsonSnapshotReader::operator=(JsonSnapshotReader&&) noexcept = default;

Result<Snapshot> JsonSnapshotReader::read(std::string_view text) { return read(text, false); }

Result<Snapshot> JsonSnapshotReader::read(const std::string& text) {
    static_assert(kJsonPaddingBytes == simdjson::SIMDJSON_PADDING);
    return read(text, text.capacity() - text.size() >= kJsonPaddingBytes);
}

Result<Snapshot> JsonSnapshotReader::read(std::string_view text_in, bool padded) {
    Element document;
    // simdjson reads up to 64 bytes past the end: text without that room is copied
    // into the parser's own padded buffer first.
    if (parser_->parser.parse(text_in.data(), text_in.size(), !padded).get(document) != simdjson::SUCCESS)
        return Error{"not JSON"};
    simdjson::dom::object root;
    if (document.get_object().get(root) != simdjson::SUCCESS) return Error{"not a JSON object"};
    try {
        const auto schema = integer(root, "schema_version");
        if (!schema) return Error{"no schema_version: not a musatop snapshot"};
        if (*schema != 1) return Error{"schema_version " + std::to_string(*schema) + " is not 1"};
        return snapshot_from(root);
    } catch (const Invalid& invalid) {
        return Error{"invalid snapshot: " + invalid.message};
    }
}

Result<Snapshot> parse_json_snapshot(std::string_view text) { return JsonSnapshotReader().read(text); }

}  // namespace musatop
