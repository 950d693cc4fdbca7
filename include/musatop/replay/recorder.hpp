// Writes a recording: one gzip member per file (one more per --append), every
// snapshot a compact JSON line flushed to disk as it is written (Z_SYNC_FLUSH and
// write(2)), so `kill -9` loses nothing already recorded. With a size limit the
// file rotates to FILE.1, FILE.2, ... keeping at most `max_files` old ones.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "musatop/model/snapshot.hpp"
#include "musatop/replay/recording.hpp"
#include "musatop/util/result.hpp"

namespace musatop::replay {

enum class OpenMode { create, append, overwrite };

struct RecorderSettings {
    std::string path;
    OpenMode mode = OpenMode::create;
    std::optional<std::uint64_t> max_bytes;  // rotate when the file reaches this size
    int max_files = 5;                       // rotated files kept beside it
};

class Recorder {
public:
    static Result<std::unique_ptr<Recorder>> open(const RecorderSettings& settings, const Header& header);
    Recorder(const Recorder&) = delete;
    Recorder& operator=(const Recorder&) = delete;
    ~Recorder();

    // Appends one snapshot; an error (disk full, file removed, permission) names the
    // file and the cause, and the recorder is then closed.
    Result<bool> append(const Snapshot& snapshot);
    std::uint64_t bytes_written() const { return file_bytes_; }
    // What opening did that the user should hear of (a repaired tail), or "".
    const std::string& note() const { return note_; }

private:
    struct Stream;
    Recorder(RecorderSettings settings, Header header);
    Result<bool> start_file(bool with_header);
    Result<bool> write_compressed(const std::string& text, int flush);
    Result<bool> rotate();
    void close_file();

    RecorderSettings settings_;
    Header header_;
    std::unique_ptr<Stream> stream_;
    int fd_ = -1;
    std::uint64_t file_bytes_ = 0;
    std::string note_;
};

// "64M", "500k", "1G", "4096": bytes (powers of 1024); none when malformed.
std::optional<std::uint64_t> parse_size(std::string_view text);

}  // namespace musatop::replay
