#include "musatop/replay/recorder.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "musatop/output/json_output.hpp"
#include "musatop/replay/tail_repair.hpp"
#include "musatop/util/safe_file.hpp"

namespace musatop::replay {

struct Recorder::Stream {
    z_stream z{};
    bool open = false;
};

Recorder::Recorder(RecorderSettings settings, Header header)
    : settings_(std::move(settings)), header_(std::move(header)), stream_(std::make_unique<Stream>()) {}

Recorder::~Recorder() { close_file(); }

Result<std::unique_ptr<Recorder>> Recorder::open(const RecorderSettings& settings, const Header& header) {
    std::unique_ptr<Recorder> recorder(new Recorder(settings, header));
    std::error_code error;
    // An empty file is what a full disk leaves at a rotation: nothing in it to keep,
    // so --append starts it anew (the parts before it are replayed as before).
    const bool empty = std::filesystem::is_regular_file(std::filesystem::symlink_status(settings.path, error)) &&
                       std::filesystem::file_size(settings.path, error) == 0 && !error;
    const bool exists = std::filesystem::exists(std::filesystem::symlink_status(settings.path, error)) && !empty;
    if (empty && settings.mode == OpenMode::append)
        recorder->note_ = settings.path + " was empty (a disk that filled at a rotation): it starts anew";
    if (exists && settings.mode == OpenMode::create)
        return Error{settings.path + " exists; --append continues it, --force replaces it"};
    if (exists && settings.mode == OpenMode::append) {
        auto existing = read_recordings({settings.path});  // refuse to append to something else
        if (!existing.ok() && existing.error().find("header only") == std::string::npos)
            return Error{"cannot append: " + existing.error()};
        auto repaired = repair_unfinished_tail(settings.path);
        if (!repaired.ok()) return Error{repaired.error()};
        recorder->note_ = repaired.value().value_or("");
    }
    auto started = recorder->start_file(!(exists && settings.mode == OpenMode::append));
    if (!started.ok()) return Error{started.error()};
    return recorder;
}

Result<bool> Recorder::start_file(bool with_header) {
    // Never through a symlink (a decoy could stand for /etc/passwd when root records),
    // and truncated only once the lock is ours: a second recorder on the same file,
    // appending or --force, would interleave or wipe the frames of the first.
    // 0600 for a new file: a recording holds every user's command lines, which /proc
    // may hide from them (hidepid); an existing file keeps the mode it was given.
    auto opened = open_regular_for_writing(settings_.path, O_WRONLY | O_CREAT | (with_header ? 0 : O_APPEND), 0600);
    if (!opened.ok()) return Error{opened.error()};
    // A second name of the same file (a hard link another user made to a file of
    // root's) or a file of another user is not this recording's to write into.
    struct stat made {};
    if (::fstat(opened->get(), &made) != 0) return Error{settings_.path + ": " + std::strerror(errno)};
    if (made.st_nlink > 1)
        return Error{settings_.path + " has " + std::to_string(made.st_nlink) +
                     " names (hard links): musatop records only into a file of one name"};
    if (made.st_uid != ::geteuid())
        return Error{settings_.path + " belongs to UID " + std::to_string(made.st_uid) +
                     ": musatop records only into its own files"};
    if (::flock(opened->get(), LOCK_EX | LOCK_NB) != 0) return Error{locked_text(settings_.path, opened->get())};
    if (with_header && ::ftruncate(opened->get(), 0) != 0) return Error{settings_.path + ": " + std::strerror(errno)};
    fd_ = opened.value().release();
    struct stat info {};
    file_bytes_ = ::fstat(fd_, &info) == 0 ? static_cast<std::uint64_t>(info.st_size) : 0;
    stream_->z = z_stream{};
    // Level 9 and the full window: consecutive snapshots share most of their text.
    if (deflateInit2(&stream_->z, 9, Z_DEFLATED, 16 + MAX_WBITS, 9, Z_DEFAULT_STRATEGY) != Z_OK)
        return Error{"zlib cannot start"};
    stream_->open = true;
    if (with_header) return write_compressed(header_line(header_) + "\n", Z_SYNC_FLUSH);
    return true;
}

Result<bool> Recorder::write_compressed(const std::string& text, int flush) {
    z_stream& z = stream_->z;
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z.avail_in = static_cast<uInt>(text.size());
    unsigned char buffer[65536];
    do {
        z.next_out = buffer;
        z.avail_out = sizeof buffer;
        deflate(&z, flush);
        const std::size_t produced = sizeof buffer - z.avail_out;
        for (std::size_t done = 0; done < produced;) {
            const ssize_t n = ::write(fd_, buffer + done, produced - done);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) {
                const std::string reason = std::strerror(errno);
                close_file();
                return Error{"recording to " + settings_.path + " stopped: " + reason};
            }
            done += static_cast<std::size_t>(n);
            file_bytes_ += static_cast<std::uint64_t>(n);
        }
    } while (z.avail_out == 0);
    return true;
}

Result<bool> Recorder::append(const Snapshot& snapshot) {
    if (fd_ < 0) return Error{"recording to " + settings_.path + " is closed"};
    // A removed file would swallow every later record unseen: check it is still there.
    struct stat open_file {
    }, named{};
    if (::fstat(fd_, &open_file) != 0 || ::stat(settings_.path.c_str(), &named) != 0 ||
        open_file.st_ino != named.st_ino || open_file.st_dev != named.st_dev) {
        close_file();
        return Error{"recording to " + settings_.path + " stopped: the file was removed or replaced"};
    }
    std::string line = render_json_compact(snapshot);
    line += '\n';
    auto written = write_compressed(line, Z_SYNC_FLUSH);
    if (!written.ok()) return written;
    if (settings_.max_bytes && file_bytes_ >= *settings_.max_bytes) return rotate();
    return true;
}

Result<bool> Recorder::rotate() {
    auto finished = write_compressed("", Z_FINISH);
    if (!finished.ok()) return finished;
    close_file();
    // A rename that fails must not be followed by reopening FILE with truncation
    // (56 of 60 frames were lost that way): the recording stops with the reason and
    // every file keeps what it holds.
    namespace fs = std::filesystem;
    std::error_code error;
    const auto name = [&](int n) { return settings_.path + "." + std::to_string(n); };
    const auto failed = [&](const std::string& from, const std::string& to) {
        return Error{"recording to " + settings_.path + " stopped: cannot rotate " + from + " to " + to + ": " +
                     error.message() + "; what was recorded is kept"};
    };
    fs::remove(name(settings_.max_files), error);
    for (int n = settings_.max_files - 1; n >= 1; --n) {
        if (!fs::exists(fs::symlink_status(name(n)))) continue;
        if (fs::rename(name(n), name(n + 1), error); error) return failed(name(n), name(n + 1));
    }
    if (fs::rename(settings_.path, name(1), error); error) return failed(settings_.path, name(1));  // --max-files >= 1
    header_.started_at = wall_now();
    return start_file(true);
}

void Recorder::close_file() {
    if (stream_ && stream_->open) {
        if (fd_ >= 0) {
            unsigned char buffer[1024];
            stream_->z.avail_in = 0;
            stream_->z.next_out = buffer;
            stream_->z.avail_out = sizeof buffer;
            if (deflate(&stream_->z, Z_FINISH) == Z_STREAM_END) {
                [[maybe_unused]] const ssize_t n = ::write(fd_, buffer, sizeof buffer - stream_->z.avail_out);
            }
        }
        deflateEnd(&stream_->z);
        stream_->open = false;
    }
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

std::optional<std::uint64_t> parse_size(std::string_view text) {
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end == text.data()) return std::nullopt;
    std::string_view unit(end, static_cast<std::size_t>(text.data() + text.size() - end));
    if (!unit.empty() && (unit.back() == 'B' || unit.back() == 'b')) unit.remove_suffix(1);
    if (!unit.empty() && unit.back() == 'i') unit.remove_suffix(1);
    int shift = 0;
    if (unit == "k" || unit == "K") shift = 10;
    else if (unit == "m" || unit == "M") shift = 20;
    else if (unit == "g" || unit == "G") shift = 30;
    else if (!unit.empty()) return std::nullopt;
    if (value == 0 || value > (UINT64_MAX >> shift)) return std::nullopt;
    return value << shift;
}

}  // namespace musatop::replay
