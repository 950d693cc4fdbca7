#include "musatop/output/json_input.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <ctime>
#include <limits>

#include <rapidjson/reader.h>

#include <cstring>

#include "snapshot_handler.hpp"
#include "musatop/model/plausible.hpp"
#include "musatop/util/clock.hpp"

namespace musatop {
namespace {

int digits(std::string_view text, std::size_t at, std::size_t count) {
    int value = 0;
    if (at + count > text.size()) return -1;
    const auto [end, error] = std::from_chars(text.data() + at, text.data() + at + count, value);
    return error == std::errc{} && end == text.data() + at + count ? value : -1;
}

}  // namespace

std::optional<WallTime> parse_iso8601(std::string_view s) {
    // YYYY-MM-DDTHH:MM:SS[.ffffff](+00:00|Z)
    if (s.size() < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':')
        return std::nullopt;
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

// RapidJSON's SAX reader rather than a DOM: the cluster view reads every node's
// snapshot every refresh (256 nodes a second is 3.5 MB of JSON), and the handler
// fills the Snapshot as the events come (docs/PERFORMANCE.md has the figures).
// Iterative, so a document nested a million deep costs heap, not the stack; full
// precision, so a number read back prints as it was written.
constexpr unsigned kParseFlags = rapidjson::kParseIterativeFlag | rapidjson::kParseFullPrecisionFlag;

struct JsonSnapshotReader::Parser {
    Limits limits;
    rapidjson::Reader reader;                 // keeps its stack between documents
    std::string copy;                         // a text without the padding, copied into it
    std::size_t devices = 8, processes = 16;  // the last document's list sizes
};

JsonSnapshotReader::JsonSnapshotReader() : JsonSnapshotReader(Limits{}) {}
JsonSnapshotReader::JsonSnapshotReader(Limits limits) : parser_(std::make_unique<Parser>()) {
    parser_->limits = limits;
}
JsonSnapshotReader::~JsonSnapshotReader() = default;
JsonSnapshotReader::JsonSnapshotReader(JsonSnapshotReader&&) noexcept = default;
JsonSnapshotReader& JsonSnapshotReader::operator=(JsonSnapshotReader&&) noexcept = default;

Result<Snapshot> JsonSnapshotReader::read(std::string_view text) {
    parser_->copy.reserve(text.size() + kJsonPaddingBytes);
    parser_->copy.assign(text);
    return read_padded(parser_->copy);
}

Result<Snapshot> JsonSnapshotReader::read(const std::string& text) {
    if (text.capacity() - text.size() >= kJsonPaddingBytes) return read_padded(text);
    return read(std::string_view(text));
}

Result<Snapshot> JsonSnapshotReader::read_padded(const std::string& text) {
    // The parser stops at a NUL: one inside the text would hide what follows it.
    if (std::memchr(text.data(), '\0', text.size())) return Error{"not JSON"};
    Snapshot snapshot;
    json_input::SnapshotHandler handler(snapshot, parser_->devices, parser_->processes);
    handler.set_limits(parser_->limits.max_devices, parser_->limits.max_processes);
    rapidjson::StringStream stream(text.c_str());
    const auto parsed = parser_->reader.Parse<kParseFlags>(stream, handler);
    if (auto over = handler.over_limit()) return Error{"invalid snapshot: " + std::move(*over)};
    if (parsed.IsError()) return Error{"not JSON"};
    if (auto problem = handler.problem()) return Error{std::move(*problem)};
    parser_->devices = std::min<std::size_t>(snapshot.devices.size(), 1024);
    parser_->processes = std::min<std::size_t>(snapshot.processes.size(), 4096);
    drop_implausible(snapshot);  // another machine's numbers: nonsense is unknown, never shown
    return snapshot;
}

Result<Snapshot> parse_json_snapshot(std::string_view text) { return JsonSnapshotReader().read(text); }

}  // namespace musatop
