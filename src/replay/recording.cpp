#include "musatop/replay/recording.hpp"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "musatop/output/format.hpp"
#include "musatop/output/json_input.hpp"

namespace musatop::replay {
namespace {

using json = nlohmann::ordered_json;

Result<std::string> read_whole(const std::string& path) {
    // A directory read as a stream looked like "an empty file", and /dev/zero never ends.
    std::error_code error;
    const auto status = std::filesystem::status(path, error);
    if (std::filesystem::is_directory(status)) return Error{path + " is a directory, not a recording"};
    if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
        return Error{path + " is not a regular file, not a recording"};
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{path + ": cannot read: " + std::strerror(errno)};  // "No such file or directory", say
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

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
    if (doc.contains("musatop_version") && doc["musatop_version"].is_string()) h.musatop_version = doc["musatop_version"];
    if (doc.contains("hostname") && doc["hostname"].is_string()) h.hostname = doc["hostname"].get<std::string>();
    if (doc.contains("interval_seconds") && doc["interval_seconds"].is_number()) h.interval_seconds = doc["interval_seconds"];
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
    if (out_of_order) out.push_back(std::to_string(out_of_order) + " record(s) older than the one before skipped");
    if (damaged_members)
        out.push_back(std::to_string(damaged_members) +
                      " part(s) cut short (a recorder stopped mid-write, then --append): read up to the damage and "
                      "on from the next part");
    for (const auto& part : missing_parts) out.push_back("missing from the rotated set: " + part + "; the rest is replayed");
    return out;
}

namespace {

// The next gzip member's start at or after `from` (npos: none).
std::size_t next_member(std::string_view bytes, std::size_t from) {
    return bytes.find(std::string_view("\x1f\x8b\x08", 3), from);
}

}  // namespace

Result<std::string> gunzip(std::string_view bytes, GunzipReport* report) {
    if (bytes.size() < 2 || static_cast<unsigned char>(bytes[0]) != 0x1f || static_cast<unsigned char>(bytes[1]) != 0x8b)
        return Error{"not a gzip file"};
    z_stream z{};
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) return Error{"zlib cannot start"};
    std::string out;
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    z.avail_in = static_cast<uInt>(bytes.size());
    char buffer[65536];
    std::size_t member_start = 0;
    for (;;) {
        z.next_out = reinterpret_cast<Bytef*>(buffer);
        z.avail_out = sizeof buffer;
        const int status = inflate(&z, Z_NO_FLUSH);
        out.append(buffer, sizeof buffer - z.avail_out);
        if (status == Z_STREAM_END) {
            if (report) report->ended_cleanly = true;
            if (z.avail_in == 0) break;
            // Another member follows (an appended recording), or trailing garbage.
            const auto* next = reinterpret_cast<const unsigned char*>(z.next_in);
            if (z.avail_in < 2 || next[0] != 0x1f || next[1] != 0x8b) break;
            member_start = static_cast<std::size_t>(reinterpret_cast<const char*>(z.next_in) - bytes.data());
            if (report) report->ended_cleanly = false;
            inflateReset(&z);
            continue;
        }
        // A stream cut short: what was flushed before the cut is already in `out`.
        if (status == Z_BUF_ERROR || (status == Z_OK && z.avail_in == 0 && z.avail_out != 0)) break;
        if (status != Z_OK) {
            if (out.empty()) {
                inflateEnd(&z);
                return Error{"corrupt gzip data"};
            }
            // A member cut short (a recorder killed, a full disk) and another behind
            // it (`record --append` afterwards): go on at the next member's header.
            // A frame torn at the junction becomes a line of its own, counted as unreadable.
            // The next header may already have been swallowed as data: searched from
            // just past this member's own 10-byte header.
            const std::size_t next = next_member(bytes, member_start + 10);
            if (next == std::string_view::npos) break;  // corruption to the end: keep what came before
            if (report) ++report->damaged_members;
            if (out.back() != '\n') out += '\n';
            member_start = next;
            inflateReset(&z);
            z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data() + next));
            z.avail_in = static_cast<uInt>(bytes.size() - next);
            continue;
        }
    }
    inflateEnd(&z);
    if (out.empty()) return Error{"corrupt gzip data"};  // not even a header line came out
    return out;
}

Result<Recording> parse_recording(std::string_view text, const std::string& origin) {
    if (text.empty()) return Error{origin + ": empty recording"};
    Recording r;
    const auto first_end = text.find('\n');
    auto header = parse_header_line(text.substr(0, first_end));
    if (!header.ok()) return Error{origin + ": " + header.error()};
    r.header = header.value();
    std::size_t at = first_end == std::string_view::npos ? text.size() : first_end + 1;
    JsonSnapshotReader reader;
    while (at < text.size()) {
        const auto end = text.find('\n', at);
        if (end == std::string_view::npos) {  // no newline: the write was cut short
            ++r.torn_tail;
            break;
        }
        const auto line = text.substr(at, end - at);
        at = end + 1;
        if (line.empty()) continue;
        auto snapshot = reader.read(line);
        if (!snapshot.ok()) {
            ++r.bad_lines;
            continue;
        }
        if (!r.snapshots.empty() && snapshot->sampled_at < r.snapshots.back().sampled_at) {
            ++r.out_of_order;
            continue;
        }
        r.snapshots.push_back(std::move(snapshot.value()));
    }
    return r;
}

// A rotated set: FILE.1, FILE.2, ... beside FILE, every one that exists (a number
// missing in between is a gap to report, not the end of the set).
std::vector<int> rotated_parts(const std::string& file) {
    namespace fs = std::filesystem;
    const fs::path base(file);
    const std::string prefix = base.filename().string() + ".";
    std::vector<int> numbers;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(base.has_parent_path() ? base.parent_path() : ".", error)) {
        const std::string name = entry.path().filename().string();
        if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0 || !entry.is_regular_file())
            continue;
        int n = 0;
        const char* digits = name.data() + prefix.size();
        const auto [end, fail] = std::from_chars(digits, name.data() + name.size(), n);
        if (fail == std::errc{} && end == name.data() + name.size() && n >= 1 && digits[0] != '0') numbers.push_back(n);
    }
    std::sort(numbers.begin(), numbers.end());
    return numbers;
}

Result<Recording> read_recordings(const std::vector<std::string>& given) {
    std::vector<std::string> paths = given;
    std::vector<std::string> missing;
    if (paths.size() == 1) {
        int expected = 1;
        for (int n : rotated_parts(given[0])) {
            if (expected < n)  // one note per gap, however wide
                missing.push_back(given[0] + "." + std::to_string(expected) +
                                  (n - 1 > expected ? " to " + given[0] + "." + std::to_string(n - 1) : ""));
            paths.push_back(given[0] + "." + std::to_string(n));
            expected = n + 1;
        }
    }
    std::vector<Recording> parts;
    for (const auto& path : paths) {
        auto bytes = read_whole(path);
        if (!bytes.ok()) return Error{bytes.error()};
        if (bytes->empty()) return Error{path + ": empty file"};
        GunzipReport report;
        auto text = gunzip(bytes.value(), &report);
        if (!text.ok()) return Error{path + ": " + text.error()};
        auto part = parse_recording(text.value(), path);
        if (!part.ok()) return Error{part.error()};
        part.value().damaged_members = report.damaged_members;
        parts.push_back(std::move(part.value()));
    }
    std::stable_sort(parts.begin(), parts.end(),
                     [](const Recording& a, const Recording& b) { return a.header.started_at < b.header.started_at; });
    Recording all;
    all.header = parts.front().header;
    all.missing_parts = std::move(missing);
    for (auto& part : parts) {
        all.torn_tail += part.torn_tail;
        all.bad_lines += part.bad_lines;
        all.out_of_order += part.out_of_order;
        all.damaged_members += part.damaged_members;
        for (auto& s : part.snapshots) {
            if (!all.snapshots.empty() && s.sampled_at < all.snapshots.back().sampled_at) {
                ++all.out_of_order;
                continue;
            }
            all.snapshots.push_back(std::move(s));
        }
    }
    if (all.snapshots.empty()) return Error{given.front() + ": no snapshots in the recording (header only)"};
    return all;
}

}  // namespace musatop::replay
