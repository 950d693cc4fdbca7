#include "musatop/replay/tail_repair.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/file.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "musatop/replay/gzip_stream.hpp"
#include "musatop/util/safe_file.hpp"
#include "musatop/util/unique_fd.hpp"

namespace musatop::replay {
namespace {

constexpr std::size_t kChunkBytes = 65536;

struct TailScan {
    bool ended_cleanly = false;
    std::uint64_t complete_bytes = 0;  // text up to and with the last newline
    std::uint64_t text_bytes = 0;
};

// One pass over the text, a chunk at a time (a recording can be far larger than memory).
Result<TailScan> scan(int fd) {
    GzipStream stream(fd);
    TailScan out;
    std::vector<char> chunk(kChunkBytes);
    for (;;) {
        auto got = stream.read(chunk.data(), chunk.size());
        if (!got.ok()) return Error{got.error()};
        if (got.value() == 0) break;
        for (std::size_t i = got.value(); i-- > 0;)
            if (chunk[i] == '\n') {
                out.complete_bytes = stream.text_offset() - got.value() + i + 1;
                break;
            }
    }
    out.ended_cleanly = stream.report().ended_cleanly;
    out.text_bytes = stream.text_offset();
    return out;
}

bool write_all(int fd, const unsigned char* data, std::size_t size) {
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        data += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

// The first `bytes` of the text of `from`, compressed again as one member into `to`.
Result<bool> recompress(int from, std::uint64_t bytes, int to) {
    z_stream z{};
    if (deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 9, Z_DEFAULT_STRATEGY) != Z_OK)
        return Error{"zlib cannot compress"};
    GzipStream stream(from);
    std::vector<char> in(kChunkBytes);
    std::vector<unsigned char> out(kChunkBytes);
    Result<bool> result = true;
    for (bool finished = false; !finished && result.ok();) {
        auto got = stream.read(in.data(), static_cast<std::size_t>(std::min<std::uint64_t>(bytes, in.size())));
        if (!got.ok()) {
            result = Error{got.error()};
            break;
        }
        bytes -= got.value();
        finished = got.value() == 0 || bytes == 0;
        z.next_in = reinterpret_cast<Bytef*>(in.data());
        z.avail_in = static_cast<uInt>(got.value());
        do {
            z.next_out = out.data();
            z.avail_out = static_cast<uInt>(out.size());
            deflate(&z, finished ? Z_FINISH : Z_NO_FLUSH);
            if (!write_all(to, out.data(), out.size() - z.avail_out)) result = Error{std::strerror(errno)};
        } while (result.ok() && z.avail_out == 0);
    }
    deflateEnd(&z);
    return result;
}

// A repair killed midway leaves its temporary file (FILE.tmp.XXXXXX, ours by
// O_EXCL); with the recording's lock held no other repair is writing one, so those
// of this user are removed.
void remove_stale_temporaries(const std::string& path) {
    namespace fs = std::filesystem;
    const fs::path file(path);
    const std::string prefix = file.filename().string() + ".tmp.";
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(file.has_parent_path() ? file.parent_path() : ".", error)) {
        const std::string name = entry.path().filename().string();
        struct stat st {};
        if (name.size() != prefix.size() + 6 || name.compare(0, prefix.size(), prefix) != 0) continue;
        if (::lstat(entry.path().c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid()) continue;
        fs::remove(entry.path(), error);
    }
}

}  // namespace

std::string locked_text(const std::string& path, int fd) {
    return path + " is locked: " + lock_holder_text(fd) +
           " (a musatop recording to it, or a reader that locked it); stop it first, or record to another file";
}

Result<std::optional<std::string>> repair_unfinished_tail(const std::string& path) {
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
    if (!fd.valid()) return Error{path + ": " + std::strerror(errno)};
    // A live recorder's last member is unfinished too: it is not ours to rewrite.
    if (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0) return Error{locked_text(path, fd.get())};
    remove_stale_temporaries(path);
    auto found = scan(fd.get());
    if (!found.ok()) return Error{path + ": " + found.error()};
    if (found->ended_cleanly) return std::optional<std::string>();
    const std::uint64_t torn = found->text_bytes - found->complete_bytes;  // a frame cut in the middle
    // The rewritten file is the same file to its readers: its mode, owner and group
    // are kept (a 0640 root:adm recording stayed 0640 root:adm, not 0644 root:root).
    struct stat before {};
    if (::fstat(fd.get(), &before) != 0) return Error{path + ": " + std::strerror(errno)};
    const auto written = replace_file_with(
        path,
        [&](int to) -> Result<bool> {
            if (::fchown(to, before.st_uid, before.st_gid) != 0 && ::geteuid() == 0) return Error{std::strerror(errno)};
            return recompress(fd.get(), found->complete_bytes, to);
        },
        before.st_mode & 07777);
    if (!written.ok()) return Error{written.error()};
    return std::optional<std::string>(
        path + " ended in an unfinished write (a recorder stopped mid-write); rewritten with every complete frame" +
        (torn ? " (" + std::to_string(torn) + " bytes of a torn one dropped)" : std::string()) + " before appending");
}

}  // namespace musatop::replay
