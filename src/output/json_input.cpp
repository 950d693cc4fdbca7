#include "musatop/output/json_input.hpp"

#include <charconv>
#include <cmath>
#include <ctime>
#include <limits>

#include <rapidjson/reader.h>

#include <cstring>

#include "snapshot_handler.hpp"
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

// RapidJSON's SAX reader rather than a DOM: the cluster view reads every node's
// snapshot every refresh (256 nodes a second is 3.5 MB of JSON), and the handler
// fills the Snapshot as the events come (docs/PERFORMANCE.md has the figures).
// Iterative, so a document nested a million deep costs heap, not the stack; full
// precision, so a number read back prints as it was written.
constexpr unsigned kParseFlags = rapidjson::kParseIterativeFlag | rapidjson::kParseFullPrecisionFlag;

struct JsonSnapshotReader::Parser {
    rapidjson::Reader reader;  // keeps its stack between documents
    std::string copy;          // a string_view's text, NUL-terminated
    std::size_t devices = 8, processes = 16;  // the last document's list sizes
};

JsonSnapshotReader::JsonSnapshotReader() : parser_(std::make_unique<Parser>()) {}
JsonSnapshotReader::~JsonSnapshotReader() = default;
JsonSnapshotReader::JsonSnapshotReader(JsonSnapshotReader&&) noexcept = default;
JsonSnapshotReader& JsonSnapshotReader::operator=(JsonSnapshotReader&&) noexcept = default;

Result<Snapshot> JsonSnapshotReader::read(std::string_view text) {
    parser_->copy.assign(text);
    return read(parser_->copy);
}

Result<Snapshot> JsonSnapshotReader::read(const std::string& text) {
    // The parser stops at a NUL: one inside the text would hide what follows it.
    if (std::memchr(text.data(), '\0', text.size())) return Error{"not JSON"};
    Snapshot snapshot;
    json_input::SnapshotHandler handler(snapshot, parser_->devices, parser_->processes);
    rapidjson::StringStream stream(text.c_str());
    if (parser_->reader.Parse<kParseFlags>(stream, handler).IsError()) return Error{"not JSON"};
    if (auto problem = handler.problem()) return Error{std::move(*problem)};
    parser_->devices = snapshot.devices.size();
    parser_->processes = snapshot.processes.size();
    return snapshot;
}

Result<Snapshot> parse_json_snapshot(std::string_view text) { return JsonSnapshotReader().read(text); }

}  // namespace musatop
