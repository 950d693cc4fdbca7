#include "musatop/replay/gzip_stream.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>

namespace musatop::replay {
namespace {

constexpr std::size_t kInputBytes = 65536;
constexpr int kGzipBits = 16 + MAX_WBITS;
constexpr int kRawBits = -MAX_WBITS;
constexpr std::uint64_t kNone = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint64_t kGzipHeaderBytes = 10;
constexpr std::uint64_t kGzipTrailerBytes = 8;  // CRC-32 and length, after a raw member's data

ssize_t pread_all(int fd, unsigned char* out, std::size_t size, std::uint64_t offset) {
    for (;;) {
        const ssize_t n = ::pread(fd, out, size, static_cast<off_t>(offset));
        if (n >= 0 || errno != EINTR) return n;
    }
}

}  // namespace

GzipStream::GzipStream(int fd, std::uint64_t spacing) : fd_(fd), spacing_(spacing), input_(kInputBytes) {
    ready_ = inflateInit2(&z_, kGzipBits) == Z_OK;
    seek(0);
}

GzipStream::GzipStream(std::string_view bytes, std::uint64_t spacing)
    : bytes_(bytes), spacing_(spacing), input_(kInputBytes) {
    ready_ = inflateInit2(&z_, kGzipBits) == Z_OK;
    seek(0);
}

long GzipStream::read_at(unsigned char* out, std::size_t size, std::uint64_t offset) const {
    if (fd_ >= 0) return pread_all(fd_, out, size, offset);
    if (offset >= bytes_.size()) return 0;
    const std::size_t n = std::min<std::size_t>(size, bytes_.size() - offset);
    std::memcpy(out, bytes_.data() + offset, n);
    return static_cast<long>(n);
}

GzipStream::~GzipStream() {
    if (ready_) inflateEnd(&z_);
}

void GzipStream::seek(std::uint64_t offset) {
    file_next_ = offset;
    input_base_ = offset;
    z_.next_in = input_.data();
    z_.avail_in = 0;
}

std::uint64_t GzipStream::input_offset() const {
    return input_base_ + static_cast<std::uint64_t>(z_.next_in - input_.data());
}

Result<std::size_t> GzipStream::fill() {
    const long n = read_at(input_.data(), input_.size(), file_next_);
    if (n < 0) return Error{std::string("cannot read: ") + std::strerror(errno)};
    input_base_ = file_next_;
    file_next_ += static_cast<std::uint64_t>(n);
    z_.next_in = input_.data();
    z_.avail_in = static_cast<uInt>(n);
    return static_cast<std::size_t>(n);
}

// The next member's magic at or after `from` (kNone: none to the end of the file).
std::uint64_t GzipStream::find_member(std::uint64_t from) const {
    static constexpr unsigned char kMagic[] = {0x1f, 0x8b, 0x08};
    std::vector<unsigned char> chunk(kInputBytes);
    for (std::uint64_t at = from;;) {
        const long n = read_at(chunk.data(), chunk.size(), at);
        if (n < static_cast<long>(sizeof kMagic)) return kNone;
        const auto end = chunk.begin() + n;
        const auto hit = std::search(chunk.begin(), end, std::begin(kMagic), std::end(kMagic));
        if (hit != end) return at + static_cast<std::uint64_t>(hit - chunk.begin());
        at += static_cast<std::uint64_t>(n) - (sizeof kMagic - 1);  // a magic across the chunks' edge
    }
}

// A member's end: another member follows (an appended recording), or the text ends
// (the file's end, or trailing bytes that are not a member).
void GzipStream::member_ended() {
    report_.ended_cleanly = true;
    if (raw_) seek(input_offset() + kGzipTrailerBytes);  // raw inflate stops before the trailer
    const std::uint64_t at = input_offset();
    unsigned char magic[2];
    if (read_at(magic, sizeof magic, at) < 2 || magic[0] != 0x1f || magic[1] != 0x8b) {
        ended_ = true;
        return;
    }
    member_start_ = at;
    raw_ = false;
    inflateReset2(&z_, kGzipBits);
    report_.ended_cleanly = false;
}

// A member cut short (a recorder killed, a full disk) and another behind it
// (`record --append` afterwards): go on at the next member's header. Its header may
// already have been swallowed as data, so the search starts just past this
// member's own header. A frame torn at the junction becomes a line of its own.
void GzipStream::recover() {
    const std::uint64_t next = find_member(member_start_ + kGzipHeaderBytes);
    if (next == kNone) {  // corruption to the end: keep what came before
        ended_ = true;
        return;
    }
    ++report_.damaged_members;
    if (last_char_ != '\n') pending_newline_ = true;
    member_start_ = next;
    seek(next);
    raw_ = false;
    inflateReset2(&z_, kGzipBits);
}

void GzipStream::maybe_checkpoint() {
    // data_type: bit 128 at a block boundary, bit 64 inside the last block, the low
    // three bits the unused bits of the last byte taken.
    const bool boundary = (z_.data_type & 128) && !(z_.data_type & 64);
    const std::uint64_t last = checkpoints_.empty() ? 0 : checkpoints_.back().text_offset;
    if (!spacing_ || !boundary || text_offset_ < last + spacing_) return;
    GzipCheckpoint point;
    point.text_offset = text_offset_;
    point.input_offset = input_offset();
    point.bits = z_.data_type & 7;
    point.member_start = member_start_;
    point.last_char = last_char_;
    point.window.resize(32768);
    uInt length = static_cast<uInt>(point.window.size());
    if (inflateGetDictionary(&z_, point.window.data(), &length) != Z_OK) return;
    point.window.resize(length);
    checkpoints_.push_back(std::move(point));
}

Result<std::size_t> GzipStream::read(char* out, std::size_t size) {
    if (!ready_) return Error{"zlib cannot start"};
    if (!started_) {
        unsigned char magic[2];
        if (read_at(magic, sizeof magic, 0) < 2 || magic[0] != 0x1f || magic[1] != 0x8b)
            return Error{"not a gzip file"};
        started_ = true;
    }
    std::size_t produced = 0;
    while (produced == 0 && size > 0 && !ended_) {
        if (pending_newline_) {
            out[produced++] = '\n';
            pending_newline_ = false;
            break;
        }
        if (z_.avail_in == 0) {
            auto got = fill();
            if (!got.ok()) return Error{got.error()};
            if (got.value() == 0) {  // the file ends: cleanly only at a member's end
                ended_ = true;
                break;
            }
        }
        z_.next_out = reinterpret_cast<Bytef*>(out);
        z_.avail_out = static_cast<uInt>(std::min<std::size_t>(size, std::numeric_limits<uInt>::max()));
        const int status = inflate(&z_, Z_BLOCK);
        produced = static_cast<std::size_t>(reinterpret_cast<char*>(z_.next_out) - out);
        if (produced) report_.ended_cleanly = false;
        text_offset_ += produced;
        if (produced) last_char_ = out[produced - 1];
        if (status == Z_STREAM_END) {
            member_ended();
        } else if (status == Z_OK || status == Z_BUF_ERROR) {
            maybe_checkpoint();
        } else if (text_offset_ == 0) {
            return Error{"corrupt gzip data"};
        } else {
            recover();
        }
    }
    if (ended_ && text_offset_ == 0 && produced == 0) return Error{"corrupt gzip data"};  // not even a header line
    return produced;
}

Result<bool> GzipStream::skip(std::uint64_t count) {
    char scratch[16384];
    while (count > 0) {
        auto got = read(scratch, static_cast<std::size_t>(std::min<std::uint64_t>(count, sizeof scratch)));
        if (!got.ok()) return Error{got.error()};
        if (got.value() == 0) return false;
        count -= got.value();
    }
    return true;
}

Result<bool> GzipStream::resume(const GzipCheckpoint& point) {
    if (!ready_ || inflateReset2(&z_, kRawBits) != Z_OK) return Error{"zlib cannot start"};
    raw_ = true;
    started_ = true;
    ended_ = false;
    pending_newline_ = false;
    seek(point.input_offset - (point.bits ? 1 : 0));
    if (point.bits) {
        auto got = fill();
        if (!got.ok()) return Error{got.error()};
        if (got.value() == 0) return Error{"the recording is shorter than it was"};
        const int byte = *z_.next_in;
        ++z_.next_in;
        --z_.avail_in;
        inflatePrime(&z_, point.bits, byte >> (8 - point.bits));
    }
    inflateSetDictionary(&z_, point.window.data(), static_cast<uInt>(point.window.size()));
    text_offset_ = point.text_offset;
    last_char_ = point.last_char;
    member_start_ = point.member_start;
    return true;
}

}  // namespace musatop::replay
