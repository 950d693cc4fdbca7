// Reading a recording without holding it: one pass over each file's text builds
// the index (frame offsets and times, checkpoints every few MiB), and a frame is
// decoded again from the nearest checkpoint when it is shown.
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>

#include "musatop/output/json_input.hpp"
#include "musatop/replay/recording.hpp"
#include "musatop/util/unique_fd.hpp"

namespace musatop::replay {
namespace {

// Text between checkpoints: a frame is at most this much inflating away from one.
constexpr std::uint64_t kCheckpointSpacingBytes = 4u << 20;
constexpr std::size_t kChunkBytes = 65536;

Result<UniqueFd> open_recording(const std::string& path) {
    // A directory read as a stream looked like "an empty file", and /dev/zero never ends.
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    if (!fd.valid()) return Error{path + ": cannot read: " + std::strerror(errno)};  // "No such file or directory", say
    struct stat info {};
    if (::fstat(fd.get(), &info) != 0) return Error{path + ": cannot read: " + std::strerror(errno)};
    if (S_ISDIR(info.st_mode)) return Error{path + " is a directory, not a recording"};
    if (!S_ISREG(info.st_mode)) return Error{path + " is not a regular file, not a recording"};
    if (info.st_size == 0) return Error{path + ": empty file"};
    return fd;
}

// Calls `on_line(text, offset)` for each whole line of the stream's text; a line
// longer than kMaxLineBytes is never held whole: it is dropped up to its end and
// said through `on_oversized(offset)`, and the lines after it are read. Returns
// false when `on_line` asked to stop; counts an unfinished last line as a torn tail.
template <typename OnLine, typename OnOversized>
Result<bool> each_line(GzipStream& stream, Recording& r, OnLine&& on_line, OnOversized&& on_oversized) {
    std::string line;
    std::uint64_t line_start = 0;
    bool dropping = false;  // inside a line over the limit
    std::vector<char> chunk(kChunkBytes);
    for (;;) {
        auto got = stream.read(chunk.data(), chunk.size());
        if (!got.ok()) return Error{got.error()};
        if (got.value() == 0) break;
        std::string_view text(chunk.data(), got.value());
        const std::uint64_t chunk_start = stream.text_offset() - got.value();
        while (!text.empty()) {
            const auto end = text.find('\n');
            const auto piece = text.substr(0, end);
            if (!dropping && line.size() + piece.size() > kMaxLineBytes) {
                on_oversized(line_start);
                dropping = true;
                line.clear();
                line.shrink_to_fit();
            }
            if (!dropping) line.append(piece);
            if (end == std::string_view::npos) break;
            if (!dropping && !on_line(std::string_view(line), line_start)) return false;
            dropping = false;
            line.clear();
            line_start = chunk_start + (text.data() - chunk.data()) + end + 1;
            text.remove_prefix(end + 1);
        }
    }
    if (!line.empty() || dropping) ++r.torn_tail;
    return true;
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

// The files in the order written: a rotated set oldest first (FILE.N ... FILE.1,
// FILE); files named one by one in the order their headers say they began.
std::vector<std::string> files_in_order(const std::vector<std::string>& given, std::vector<std::string>& missing) {
    if (given.size() != 1) return given;
    std::vector<std::string> paths;
    int expected = 1;
    for (int n : rotated_parts(given[0])) {
        if (expected < n)  // one note per gap, however wide
            missing.push_back(given[0] + "." + std::to_string(expected) +
                              (n - 1 > expected ? " to " + given[0] + "." + std::to_string(n - 1) : ""));
        paths.insert(paths.begin(), given[0] + "." + std::to_string(n));
        expected = n + 1;
    }
    paths.push_back(given[0]);
    return paths;
}

Result<Header> first_header(int fd, const std::string& path) {
    GzipStream stream(fd);
    Recording ignored;
    RecordingScanner scanner(ignored);
    std::optional<Result<Header>> header;
    auto read = each_line(
        stream, ignored,
        [&](std::string_view line, std::uint64_t) {
            header = scanner.begin_part(line, path, 0);
            return false;
        },
        [](std::uint64_t) {});
    if (!read.ok()) return Error{path + ": " + read.error()};
    if (!header) return Error{path + ": not a musatop recording (no musatop-recording header)"};
    return *header;
}

}  // namespace

struct RecordingIndex::Part {
    std::string path;
    UniqueFd fd;
    std::vector<GzipCheckpoint> checkpoints;
};

struct RecordingIndex::Cursor {
    std::uint32_t part = 0;
    std::unique_ptr<GzipStream> stream;
    JsonSnapshotReader reader;
    std::string line;
};

RecordingIndex::RecordingIndex() = default;
RecordingIndex::RecordingIndex(RecordingIndex&&) noexcept = default;
RecordingIndex& RecordingIndex::operator=(RecordingIndex&&) noexcept = default;
RecordingIndex::~RecordingIndex() = default;

WallTime RecordingIndex::first_time() const {
    return std::min_element(recording_.frames.begin(), recording_.frames.end(),
                            [](const FrameRef& a, const FrameRef& b) { return a.sampled_at < b.sampled_at; })
        ->sampled_at;
}

WallTime RecordingIndex::last_time() const {
    return std::max_element(recording_.frames.begin(), recording_.frames.end(),
                            [](const FrameRef& a, const FrameRef& b) { return a.sampled_at < b.sampled_at; })
        ->sampled_at;
}

std::optional<std::size_t> RecordingIndex::in_force_at(WallTime t) const {
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < recording_.frames.size(); ++i) {
        const WallTime at = recording_.frames[i].sampled_at;
        if (at <= t && (!best || at >= recording_.frames[*best].sampled_at)) best = i;
    }
    return best;
}

Result<Snapshot> RecordingIndex::load(std::size_t frame) {
    const FrameRef& ref = recording_.frames.at(frame);
    Part& part = parts_[ref.part];
    if (!cursor_) cursor_ = std::make_unique<Cursor>();
    Cursor& c = *cursor_;
    // Sequential reading goes on where the last frame ended; anything else starts
    // again at the nearest checkpoint before the frame.
    if (!c.stream || c.part != ref.part || c.stream->text_offset() > ref.text_offset ||
        ref.text_offset - c.stream->text_offset() > kCheckpointSpacingBytes) {
        c.stream = std::make_unique<GzipStream>(part.fd.get());
        c.part = ref.part;
        const auto after = std::upper_bound(
            part.checkpoints.begin(), part.checkpoints.end(), ref.text_offset,
            [](std::uint64_t offset, const GzipCheckpoint& point) { return offset < point.text_offset; });
        if (after != part.checkpoints.begin())
            if (auto resumed = c.stream->resume(*std::prev(after)); !resumed.ok())
                return Error{part.path + ": " + resumed.error()};
    }
    const auto changed = [&] { return Error{part.path + ": the file changed while it was replayed"}; };
    auto skipped = c.stream->skip(ref.text_offset - c.stream->text_offset());
    if (!skipped.ok()) return Error{part.path + ": " + skipped.error()};
    if (!skipped.value()) return changed();
    c.line.resize(ref.length);
    for (std::size_t have = 0; have < ref.length;) {
        auto got = c.stream->read(c.line.data() + have, ref.length - have);
        if (!got.ok()) return Error{part.path + ": " + got.error()};
        if (got.value() == 0) return changed();
        have += got.value();
    }
    auto snapshot = c.reader.read(c.line);
    if (!snapshot.ok() || snapshot->sampled_at != ref.sampled_at) return changed();
    return snapshot;
}

Result<RecordingIndex> read_recordings(const std::vector<std::string>& given) {
    RecordingIndex index;
    Recording& r = index.recording_;
    std::vector<std::pair<Header, RecordingIndex::Part>> opened;
    // One file that cannot be read (a current file left empty by a full disk, a
    // stray file named like a part) costs that file, never the set: it is named
    // and the others are replayed.
    std::optional<Error> first_problem;
    for (const auto& path : files_in_order(given, r.missing_parts)) {
        auto fd = open_recording(path);
        auto header = fd.ok() ? first_header(fd->get(), path) : Result<Header>(Error{fd.error()});
        if (!header.ok()) {
            if (!first_problem) first_problem = Error{header.error()};
            r.skipped_parts.push_back(header.error());
            continue;
        }
        opened.push_back({header.value(), RecordingIndex::Part{path, std::move(fd.value()), {}}});
    }
    if (opened.empty()) return *first_problem;
    if (given.size() > 1)
        std::stable_sort(opened.begin(), opened.end(),
                         [](const auto& a, const auto& b) { return a.first.started_at < b.first.started_at; });
    RecordingScanner scanner(r);
    for (auto& entry : opened) {  // (no structured binding: the lambda below captures it, which clang 14 refuses)
        RecordingIndex::Part& part = entry.second;
        const auto number = static_cast<std::uint32_t>(index.parts_.size());
        GzipStream stream(part.fd.get(), kCheckpointSpacingBytes);
        bool first = true;
        auto whole = each_line(
            stream, r,
            [&](std::string_view line, std::uint64_t offset) {
                if (first) (void)scanner.begin_part(line, part.path, number);  // read once already: valid
                else scanner.line(line, offset);
                first = false;
                return true;
            },
            [&](std::uint64_t offset) { r.oversized.push_back(part.path + " at byte " + std::to_string(offset)); });
        if (!whole.ok()) return Error{part.path + ": " + whole.error()};
        r.damaged_members += stream.report().damaged_members;
        part.checkpoints = stream.take_checkpoints();
        index.parts_.push_back(std::move(part));
    }
    if (r.frames.empty()) return Error{given.front() + ": no snapshots in the recording (header only)"};
    return index;
}

}  // namespace musatop::replay
