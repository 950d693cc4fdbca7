#include "musatop/replay/tail_repair.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>

#include "musatop/replay/recording.hpp"
#include "musatop/util/safe_file.hpp"
#include "musatop/util/unique_fd.hpp"

namespace musatop::replay {
namespace {

std::optional<std::string> gzip_text(const std::string& text) {
    z_stream z{};
    if (deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 9, Z_DEFAULT_STRATEGY) != Z_OK) return std::nullopt;
    std::string out(deflateBound(&z, static_cast<uLong>(text.size())), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z.avail_in = static_cast<uInt>(text.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const bool done = deflate(&z, Z_FINISH) == Z_STREAM_END;
    out.resize(out.size() - z.avail_out);
    deflateEnd(&z);
    if (!done) return std::nullopt;
    return out;
}

Result<std::string> read_all(int fd, const std::string& path) {
    std::string bytes;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return Error{path + ": " + std::strerror(errno)};
        if (n == 0) return bytes;
        bytes.append(buffer, static_cast<std::size_t>(n));
    }
}

}  // namespace

Result<std::optional<std::string>> repair_unfinished_tail(const std::string& path) {
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
    if (!fd.valid()) return Error{path + ": " + std::strerror(errno)};
    // A live recorder's last member is unfinished too: it is not ours to rewrite.
    if (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0)
        return Error{"another musatop is recording to " + path + "; stop it first, or record to another file"};
    auto bytes = read_all(fd.get(), path);
    if (!bytes.ok()) return Error{bytes.error()};
    GunzipReport report;
    auto text = gunzip(bytes.value(), &report);
    if (!text.ok()) return Error{path + ": " + text.error()};
    if (report.ended_cleanly) return std::optional<std::string>();
    std::string& kept = text.value();
    const std::size_t torn = kept.size() - (kept.rfind('\n') + 1);  // a frame cut in the middle
    kept.resize(kept.size() - torn);
    const auto compressed = gzip_text(kept);
    if (!compressed) return Error{path + ": zlib cannot compress"};
    if (auto written = replace_file(path, *compressed); !written.ok()) return Error{written.error()};
    return std::optional<std::string>(
        path + " ended in an unfinished write (a recorder stopped mid-write); rewritten with every complete frame" +
        (torn ? " (" + std::to_string(torn) + " bytes of a torn one dropped)" : std::string()) + " before appending");
}

}  // namespace musatop::replay
