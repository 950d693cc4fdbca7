// A gzip file of one or more members read as one stream of text, a buffer at a
// time, never held whole (a one-day recording is ~0.5 GB of text; a crafted one is
// unbounded). The recovery rules of recordings: a member cut short with another
// behind it (a recorder killed, then `record --append`) is read up to the damage
// and on from the next member, a newline put at the junction; a file cut short
// ends the stream. Checkpoints let a reader resume in the middle without inflating
// from the start: deflate's 32 KiB window at a block boundary (the method of zlib's
// examples/zran.c).
#pragma once

#include <zlib.h>

#include <cstdint>
#include <string_view>
#include <vector>

#include "musatop/util/result.hpp"

namespace musatop::replay {

struct GzipCheckpoint {
    std::uint64_t text_offset = 0;   // text before this point
    std::uint64_t input_offset = 0;  // the first compressed byte not wholly used
    int bits = 0;                    // bits of the byte before input_offset not yet used
    std::uint64_t member_start = 0;
    char last_char = '\n';
    std::vector<unsigned char> window;  // the text before this point, deflate's dictionary
};

// What the stream met on the way.
struct GzipReport {
    std::size_t damaged_members = 0;  // cut short with another member behind (an --append after a kill)
    bool ended_cleanly = false;       // the last member has its end (false: a recorder stopped mid-write)
};

class GzipStream {
public:
    // Reads `fd` (not owned) with pread: several streams may share one fd. With a
    // spacing, a checkpoint is kept about every that many bytes of text.
    explicit GzipStream(int fd, std::uint64_t checkpoint_spacing_bytes = 0);
    // Reads bytes held in memory (they must outlive the stream).
    explicit GzipStream(std::string_view bytes, std::uint64_t checkpoint_spacing_bytes = 0);
    ~GzipStream();
    GzipStream(const GzipStream&) = delete;
    GzipStream& operator=(const GzipStream&) = delete;

    // Up to `size` bytes of text; 0 at the end. Errors: not gzip, corrupt before
    // any text came out, a read error.
    Result<std::size_t> read(char* out, std::size_t size);
    // Reads and drops `count` bytes of text; false when the text ends first.
    Result<bool> skip(std::uint64_t count);
    // Goes on from a checkpoint another stream over the same file took.
    Result<bool> resume(const GzipCheckpoint& point);

    std::uint64_t text_offset() const { return text_offset_; }
    const GzipReport& report() const { return report_; }
    std::vector<GzipCheckpoint> take_checkpoints() { return std::move(checkpoints_); }

private:
    Result<std::size_t> fill();
    void seek(std::uint64_t offset);
    std::uint64_t input_offset() const;
    void member_ended();
    void recover();
    void maybe_checkpoint();
    std::uint64_t find_member(std::uint64_t from) const;
    long read_at(unsigned char* out, std::size_t size, std::uint64_t offset) const;  // pread's answer

    int fd_ = -1;
    std::string_view bytes_;
    std::uint64_t spacing_ = 0;
    z_stream z_{};
    bool ready_ = false;
    bool raw_ = false;  // resumed at a checkpoint: raw deflate up to the member's end
    std::vector<unsigned char> input_;
    std::uint64_t input_base_ = 0;  // the file offset of input_[0]
    std::uint64_t file_next_ = 0;   // the next offset to read
    std::uint64_t member_start_ = 0;
    std::uint64_t text_offset_ = 0;
    char last_char_ = '\n';
    bool started_ = false;
    bool pending_newline_ = false;
    bool ended_ = false;
    GzipReport report_;
    std::vector<GzipCheckpoint> checkpoints_;
};

}  // namespace musatop::replay
