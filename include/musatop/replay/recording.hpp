// The recording format (docs/recording.md): gzip-compressed JSON Lines. The first
// line is a header object; every following line is one snapshot in the `--json`
// schema v1, compact. Each line is flushed to disk as it is written, so a recorder
// killed at any moment leaves every earlier snapshot readable by zcat and replay.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "musatop/model/snapshot.hpp"
#include "musatop/util/result.hpp"

namespace musatop::replay {

inline constexpr const char* kFormatName = "musatop-recording";
inline constexpr int kFormatVersion = 1;

struct Header {
    std::string musatop_version;
    std::optional<std::string> hostname;
    double interval_seconds = 1;
    WallTime started_at{};
};

std::string header_line(const Header& header);  // compact JSON, no newline
Result<Header> parse_header_line(std::string_view line);

// What was read, and what was skipped on the way (never an error for the rest).
struct Recording {
    Header header;
    std::vector<Snapshot> snapshots;  // in time order
    std::size_t torn_tail = 0;        // an incomplete last record (the recorder was killed mid-write)
    std::size_t bad_lines = 0;        // lines that are not a snapshot
    std::size_t out_of_order = 0;     // snapshots older than the one before them
    std::size_t damaged_members = 0;  // gzip members cut short with another behind them
    std::vector<std::string> missing_parts;  // gaps in a rotated set: "FILE.2", "FILE.4 to FILE.6"
    std::vector<std::string> notes() const;  // one line per kind of skip, for stderr
};

// What gunzip met on the way.
struct GunzipReport {
    std::size_t damaged_members = 0;  // cut short with another member behind (an --append after a kill)
    bool ended_cleanly = false;       // the last member has its end (false: a recorder stopped mid-write)
};

// Decompresses a gzip stream of one or more members; a stream cut short (a killed
// recorder) yields what was complete, and a damaged member followed by another is
// left at the damage for the next one. Error: not gzip at all.
Result<std::string> gunzip(std::string_view bytes, GunzipReport* report = nullptr);

// Parses the decompressed text of one file.
Result<Recording> parse_recording(std::string_view text, const std::string& origin);

// Reads files (or one file and its rotated set FILE.1, FILE.2, ...) in time order.
Result<Recording> read_recordings(const std::vector<std::string>& paths);

}  // namespace musatop::replay
