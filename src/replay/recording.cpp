#include "musatop/replay/recording.hpp"

#include <cstdio>

#include <nlohmann/json.hpp>

#include "musatop/output/format.hpp"
#include "musatop/output/json_input.hpp"

namespace musatop::replay {
namespace {

using json = nlohmann::ordered_json;

}  // namespace

std::string header_line(const Header& h) {
    json out;
    out["format"] = kFormatName;
    out["format_version"] = kFormatVersion;
    out["musatop_version"] = h.musatop_version;
    out["hostname"] = h.hostname ? json(*h.hostname) : json(nullptr);
    out["interval_seconds"] = h.interval_seconds;
    out["started_at"] = format_iso8601(h.started_at);
    return out.dump(-1, ' ', true, json::error_handler_t::replace);
}

Result<Header> parse_header_line(std::string_view line) {
    const auto doc = json::parse(line, nullptr, false);
    // value("format", "") would throw on a "format" that is not text (the fuzzer's find).
    const auto format = doc.is_object() ? doc.find("format") : doc.end();
    if (doc.is_discarded() || !doc.is_object() || format == doc.end() || !format->is_string() || *format != kFormatName)
        return Error{"not a musatop recording (no musatop-recording header)"};
    const auto version = doc.find("format_version");
    if (version == doc.end() || !version->is_number_integer()) return Error{"the header has no format_version"};
    // As a 64-bit number: 2^40 read as an int wrapped to 0 and was accepted.
    const auto number = version->is_number_unsigned() ? version->get<std::uint64_t>() : std::uint64_t{0};
    if (version->is_number_unsigned() && number > static_cast<std::uint64_t>(kFormatVersion))
        return Error{"format_version " + std::to_string(number) + " is newer than this musatop reads (" +
                     std::to_string(kFormatVersion) + "); use a newer musatop"};
    Header h;
    if (doc.contains("musatop_version") && doc["musatop_version"].is_string())
        h.musatop_version = doc["musatop_version"];
    if (doc.contains("hostname") && doc["hostname"].is_string()) h.hostname = doc["hostname"].get<std::string>();
    if (doc.contains("interval_seconds") && doc["interval_seconds"].is_number())
        h.interval_seconds = doc["interval_seconds"];
    const auto started = doc.contains("started_at") && doc["started_at"].is_string()
                             ? parse_iso8601(doc["started_at"].get<std::string>())
                             : std::nullopt;
    if (!started) return Error{"the header has no valid started_at"};
    h.started_at = *started;
    return h;
}

std::vector<std::string> Recording::notes() const {
    std::vector<std::string> out;
    if (torn_tail) out.push_back(std::to_string(torn_tail) + " incomplete record at the end ignored");
    if (bad_lines) out.push_back(std::to_string(bad_lines) + " unreadable record(s) skipped");
    if (damaged_members)
        out.push_back(std::to_string(damaged_members) +
                      " part(s) cut short (a recorder stopped mid-write, then --append): read up to the damage and "
                      "on from the next part");
    for (const auto& where : oversized)
        out.push_back("a record longer than " + std::to_string(kMaxLineBytes >> 20) + " MiB in " + where +
                      " skipped; the records after it are replayed");
    for (const auto& part : skipped_parts) out.push_back("skipped " + part + "; the other files are replayed");
    for (const auto& part : missing_parts)
        out.push_back("missing from the rotated set: " + part + "; the rest is replayed");
    for (const auto& step : clock_steps) {
        const auto back = std::chrono::duration<double>(step.before - step.after).count();
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%.1f", back);
        out.push_back("the clock stepped back " + std::string(seconds) + " s before frame " +
                      std::to_string(step.frame + 1) + " (" + format_iso8601(step.before) + " then " +
                      format_iso8601(step.after) + "); frames are replayed in the order written");
    }
    return out;
}

struct RecordingScanner::Reader {
    JsonSnapshotReader json;
};

RecordingScanner::RecordingScanner(Recording& into) : into_(into), reader_(std::make_unique<Reader>()) {}
RecordingScanner::~RecordingScanner() = default;

Result<Header> RecordingScanner::begin_part(std::string_view line, const std::string& origin, std::uint32_t part) {
    auto header = parse_header_line(line);
    if (!header.ok()) return Error{origin + ": " + header.error()};
    if (part == 0 && into_.frames.empty()) into_.header = header.value();
    part_ = part;
    return header;
}

void RecordingScanner::line(std::string_view text, std::uint64_t text_offset) {
    if (text.empty()) return;
    auto snapshot = reader_->json.read(text);
    if (!snapshot.ok()) {
        ++into_.bad_lines;
        return;
    }
    const WallTime t = snapshot->sampled_at;
    if (!into_.frames.empty() && t < into_.frames.back().sampled_at)
        into_.clock_steps.push_back({into_.frames.size(), into_.frames.back().sampled_at, t});
    into_.frames.push_back({t, text_offset, static_cast<std::uint32_t>(text.size()), part_});
}

Result<std::string> gunzip(std::string_view bytes, GzipReport* report) {
    GzipStream stream(bytes);
    std::string out;
    char buffer[65536];
    for (;;) {
        auto got = stream.read(buffer, sizeof buffer);
        if (!got.ok()) return Error{got.error()};
        if (got.value() == 0) break;
        out.append(buffer, got.value());
    }
    if (report) *report = stream.report();
    return out;
}

Result<Recording> parse_recording(std::string_view text, const std::string& origin) {
    if (text.empty()) return Error{origin + ": empty recording"};
    Recording r;
    RecordingScanner scanner(r);
    const auto first_end = text.find('\n');
    auto header = scanner.begin_part(text.substr(0, first_end), origin, 0);
    if (!header.ok()) return Error{header.error()};
    std::size_t at = first_end == std::string_view::npos ? text.size() : first_end + 1;
    while (at < text.size()) {
        const auto end = text.find('\n', at);
        if (end == std::string_view::npos) {  // no newline: the write was cut short
            ++r.torn_tail;
            break;
        }
        scanner.line(text.substr(at, end - at), at);
        at = end + 1;
    }
    return r;
}

}  // namespace musatop::replay
