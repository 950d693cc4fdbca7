// The recording format (docs/recording.md): gzip-compressed JSON Lines. The first
// line is a header object; every following line is one snapshot in the `--json`
// schema v1, compact. Each line is flushed to disk as it is written, so a recorder
// killed at any moment leaves every earlier snapshot readable by zcat and replay.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "musatop/model/snapshot.hpp"
#include "musatop/replay/gzip_stream.hpp"
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

// Where one snapshot's line is: the part (file) and its offset in that part's text.
struct FrameRef {
    WallTime sampled_at{};
    std::uint64_t text_offset = 0;
    std::uint32_t length = 0;
    std::uint32_t part = 0;
};

// The wall clock going backwards between two frames written one after the other
// (NTP, a resumed VM): the frames are kept in the order written and this is said.
struct ClockStep {
    std::size_t frame = 0;  // the first frame after the step
    WallTime before{};
    WallTime after{};
};

// What was read, and what was skipped on the way (never an error for the rest).
struct Recording {
    Header header;
    std::vector<FrameRef> frames;            // in the order they were written
    std::size_t torn_tail = 0;               // an incomplete last record (the recorder was killed mid-write)
    std::size_t bad_lines = 0;               // lines that are not a snapshot
    std::size_t damaged_members = 0;         // gzip members cut short with another behind them
    std::vector<std::string> oversized;      // "FILE at byte N": a line over kMaxLineBytes, skipped
    std::vector<std::string> skipped_parts;  // "FILE: why": a file of the set that cannot be read
    std::vector<std::string> missing_parts;  // gaps in a rotated set: "FILE.2", "FILE.4 to FILE.6"
    std::vector<ClockStep> clock_steps;
    std::vector<std::string> notes() const;  // one line per kind of skip, for stderr
};

// No snapshot line is longer (10,000 processes on 256 GPUs come to ~3 MiB): a line
// without an end (a gzip bomb, /dev/zero's like) is not read into memory whole.
inline constexpr std::size_t kMaxLineBytes = 16u << 20;

// Lines of text in, frames out: the header from a part's first line, every later
// line checked as a snapshot and indexed. Pure.
class RecordingScanner {
public:
    explicit RecordingScanner(Recording& into);
    ~RecordingScanner();
    // The first line of a part: its header (the recording's, for the first part).
    Result<Header> begin_part(std::string_view line, const std::string& origin, std::uint32_t part);
    void line(std::string_view text, std::uint64_t text_offset);

private:
    struct Reader;
    Recording& into_;
    std::unique_ptr<Reader> reader_;
    std::uint32_t part_ = 0;
};

// Parses the decompressed text of one file (part 0); for tests and the fuzzer.
Result<Recording> parse_recording(std::string_view text, const std::string& origin);

// Decompresses a whole gzip text held in memory, with GzipStream's rules; for tests
// and the fuzzer. Error: not gzip at all.
Result<std::string> gunzip(std::string_view bytes, GzipReport* report = nullptr);

// Files (or one file and its rotated set FILE.N ... FILE.1, FILE) indexed in the
// order written: frame offsets and times in memory, a snapshot decoded when asked
// for. Memory: ~32 bytes a frame and 32 KiB per 4 MiB of text.
class RecordingIndex {
public:
    RecordingIndex(RecordingIndex&&) noexcept;
    RecordingIndex& operator=(RecordingIndex&&) noexcept;
    ~RecordingIndex();

    const Recording& recording() const { return recording_; }
    const Header& header() const { return recording_.header; }
    std::size_t size() const { return recording_.frames.size(); }
    WallTime time(std::size_t frame) const { return recording_.frames[frame].sampled_at; }
    WallTime first_time() const;  // the earliest time of any frame
    WallTime last_time() const;   // the latest
    // The frame in force at `t`: the one sampled latest at or before it (of equal
    // times, the one written last); none before the first.
    std::optional<std::size_t> in_force_at(WallTime t) const;
    // Decodes one frame. Not thread-safe (one cursor): one reader at a time.
    Result<Snapshot> load(std::size_t frame);

private:
    friend Result<RecordingIndex> read_recordings(const std::vector<std::string>& paths);
    struct Part;
    struct Cursor;
    RecordingIndex();
    Recording recording_;
    std::vector<Part> parts_;
    std::unique_ptr<Cursor> cursor_;
};

Result<RecordingIndex> read_recordings(const std::vector<std::string>& paths);

}  // namespace musatop::replay
