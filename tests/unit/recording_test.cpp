// The recording format: written by Recorder, read back by read_recordings, with
// every kind of damage a recorder or a disk can leave behind.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <signal.h>
#include <sys/resource.h>
#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "musatop/output/json_output.hpp"
#include "musatop/replay/recorder.hpp"
#include "musatop/replay/recording.hpp"
#include "musatop/replay/replay_time.hpp"
#include "demo_samples.hpp"
#include "test_support.hpp"

using namespace musatop;
using namespace musatop::replay;
using musatop::testing::at;
using musatop::testing::header_at;
using musatop::testing::sample;
using musatop::testing::TempDir;

namespace {

std::string gzip(const std::string& text) {
    z_stream z{};
    deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    std::string out(compressBound(static_cast<uLong>(text.size())) + 64, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z.avail_in = static_cast<uInt>(text.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

void record(const std::string& path, std::vector<long long> times, OpenMode mode = OpenMode::create,
            std::optional<std::uint64_t> max_bytes = std::nullopt, int max_files = 5) {
    auto recorder = Recorder::open({path, mode, max_bytes, max_files}, header_at(times.front()));
    ASSERT_TRUE(recorder.ok()) << recorder.error();
    for (long long t : times) ASSERT_TRUE(recorder.value()->append(sample(t)).ok());
}

// Every frame of an index, decoded in the order written.
std::vector<Snapshot> load_all(RecordingIndex& index) {
    std::vector<Snapshot> out;
    for (std::size_t i = 0; i < index.size(); ++i) {
        auto snapshot = index.load(i);
        EXPECT_TRUE(snapshot.ok()) << snapshot.error();
        if (snapshot.ok()) out.push_back(std::move(snapshot.value()));
    }
    return out;
}

}  // namespace

TEST(Recording, WrittenSnapshotsReadBackExactly) {
    TempDir dir;
    const std::string path = (dir / "r.rec").string();
    record(path, {100, 101, 102});
    auto r = read_recordings({path});
    ASSERT_TRUE(r.ok()) << r.error();
    const auto snapshots = load_all(r.value());
    ASSERT_EQ(snapshots.size(), 3u);
    for (long long t : {100, 101, 102})
        EXPECT_EQ(render_json(snapshots[static_cast<std::size_t>(t - 100)]), render_json(sample(t)));
    EXPECT_EQ(r->header().hostname, "node");
    EXPECT_TRUE(r->recording().notes().empty());
}

TEST(Recording, AppendContinuesAndCreateRefusesToOverwrite) {
    TempDir dir;
    const std::string path = (dir / "r.rec").string();
    record(path, {100, 101});
    const auto refused = Recorder::open({path, OpenMode::create, {}, 5}, header_at(200));
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error(), path + " exists; --append continues it, --force replaces it");
    record(path, {102, 103}, OpenMode::append);
    auto r = read_recordings({path});
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r->size(), 4u);
    record(path, {300}, OpenMode::overwrite);
    r = read_recordings({path});
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->size(), 1u);
    musatop::testing::write_text(dir / "other", "not a recording");
    EXPECT_FALSE(Recorder::open({(dir / "other").string(), OpenMode::append, {}, 5}, header_at(1)).ok());
}

TEST(Recording, RotationKeepsMaxFilesAndReadsInTimeOrder) {
    TempDir dir;
    const std::string path = (dir / "r.rec").string();
    record(path, {100, 101, 102, 103, 104}, OpenMode::create, 1, 2);  // every record fills a file
    EXPECT_TRUE(std::filesystem::exists(path + ".1"));
    EXPECT_TRUE(std::filesystem::exists(path + ".2"));
    EXPECT_FALSE(std::filesystem::exists(path + ".3"));
    const auto r = read_recordings({path});
    ASSERT_TRUE(r.ok()) << r.error();
    ASSERT_EQ(r->size(), 2u);  // the newest two rotated files; the current one has only its header
    EXPECT_LT(r->time(0), r->time(1));
}

TEST(Recording, ATornLastRecordIsSkippedAndCounted) {
    TempDir dir;
    const std::string path = (dir / "r.rec").string();
    record(path, {100, 101, 102});
    const std::string whole = musatop::testing::read_text(path);
    // Cut inside the last record's compressed bytes, as `kill -9` mid-write would.
    const auto text = gunzip(whole);
    ASSERT_TRUE(text.ok());
    const std::string cut = text.value().substr(0, text.value().size() - 40);
    const auto r = parse_recording(cut, "r.rec");
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->frames.size(), 2u);
    EXPECT_EQ(r->torn_tail, 1u);
    EXPECT_EQ(r->notes().at(0), "1 incomplete record at the end ignored");
    const auto truncated = gunzip(whole.substr(0, whole.size() - 10));  // no gzip trailer
    ASSERT_TRUE(truncated.ok());
    EXPECT_EQ(truncated.value(), text.value());
}

TEST(Recording, GarbageIsSkippedAndAClockStepBackKeepsTheOrderWritten) {
    const std::string text = header_line(header_at(100)) + "\n" + render_json_compact(sample(100)) +
                             "\nthis is not json\n{\"schema_version\": 7}\n" + render_json_compact(sample(102)) + "\n" +
                             render_json_compact(sample(101)) + "\n" + render_json_compact(sample(103)) + "\n";
    const auto r = parse_recording(text, "r.rec");
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->frames.size(), 4u);  // kept in the order written: the clock stepped back between 102 and 101
    EXPECT_EQ(r->frames[2].sampled_at, at(101));
    EXPECT_EQ(r->bad_lines, 2u);
    ASSERT_EQ(r->clock_steps.size(), 1u);
    EXPECT_EQ(r->clock_steps[0].frame, 2u);
    ASSERT_EQ(r->notes().size(), 2u);
    EXPECT_EQ(r->notes()[1],
              "the clock stepped back 1.0 s before frame 3 (1970-01-01T00:01:42.000000+00:00 then "
              "1970-01-01T00:01:41.000000+00:00); frames are replayed in the order written");
}

TEST(Recording, BadFilesGetAClearMessage) {
    TempDir dir;
    const auto error = [&](const std::string& name, const std::string& bytes) {
        musatop::testing::write_text(dir / name, bytes);
        const auto r = read_recordings({(dir / name).string()});
        return r.ok() ? std::string("accepted") : r.error();
    };
    const std::string p = dir.path().string() + "/";
    EXPECT_EQ(error("empty", ""), p + "empty: empty file");
    EXPECT_EQ(error("plain", "{\"format\": \"musatop-recording\"}\n"), p + "plain: not a gzip file");
    EXPECT_EQ(error("other", gzip("hello\n")), p + "other: not a musatop recording (no musatop-recording header)");
    EXPECT_EQ(error("newer", gzip("{\"format\":\"musatop-recording\",\"format_version\":2}\n")),
              p + "newer: format_version 2 is newer than this musatop reads (1); use a newer musatop");
    EXPECT_EQ(error("header", gzip(header_line(header_at(1)) + "\n")),
              p + "header: no snapshots in the recording (header only)");
    EXPECT_EQ(error("corrupt", std::string("\x1f\x8b\x08\x00garbage", 11)), p + "corrupt: corrupt gzip data");
    EXPECT_EQ(read_recordings({p + "missing"}).error(), p + "missing: cannot read: No such file or directory");
    EXPECT_EQ(read_recordings({dir.path().string()}).error(), dir.path().string() + " is a directory, not a recording");
    EXPECT_EQ(read_recordings({"/dev/zero"}).error(), "/dev/zero is not a regular file, not a recording");
}

TEST(Recording, WriteFailuresStopWithTheCause) {
    TempDir dir;
    {  // a file that cannot grow (ulimit -f; a full disk fails the same way)
        const std::string capped = (dir / "capped.rec").string();
        rlimit saved{};
        ::getrlimit(RLIMIT_FSIZE, &saved);
        const auto previous = ::signal(SIGXFSZ, SIG_IGN);
        rlimit tiny = saved;
        tiny.rlim_cur = 16;
        ::setrlimit(RLIMIT_FSIZE, &tiny);
        auto full = Recorder::open({capped, OpenMode::create, {}, 5}, header_at(1));
        ::setrlimit(RLIMIT_FSIZE, &saved);
        ::signal(SIGXFSZ, previous);
        ASSERT_FALSE(full.ok());
        EXPECT_EQ(full.error(), "recording to " + capped + " stopped: File too large");
    }
    // Devices are not recordings: /dev/full and the like are refused by name.
    EXPECT_EQ(Recorder::open({"/dev/full", OpenMode::overwrite, {}, 5}, header_at(1)).error(),
              "/dev/full is not a regular file");
    const std::string path = (dir / "r.rec").string();
    auto recorder = Recorder::open({path, OpenMode::create, {}, 5}, header_at(1));
    ASSERT_TRUE(recorder.ok());
    std::filesystem::remove(path);
    const auto written = recorder.value()->append(sample(1));
    ASSERT_FALSE(written.ok());
    EXPECT_EQ(written.error(), "recording to " + path + " stopped: the file was removed or replaced");
    EXPECT_FALSE(recorder.value()->append(sample(2)).ok());  // stays stopped
}

TEST(ReplayTime, IsoLocalAndOffsets) {
    ::setenv("TZ", "UTC", 1);
    ::tzset();
    const WallTime start = at(1796205600);  // 2026-12-02T10:00:00Z
    EXPECT_EQ(parse_replay_time("+90s", start), start + std::chrono::seconds(90));
    EXPECT_EQ(parse_replay_time("+5m", start), start + std::chrono::minutes(5));
    EXPECT_EQ(parse_replay_time("+1h30m", start), start + std::chrono::minutes(90));
    EXPECT_EQ(parse_replay_time("2026-12-02T10:00:05Z", start), start + std::chrono::seconds(5));
    EXPECT_EQ(parse_replay_time("2026-12-02T18:00:00+08:00", start), start);
    EXPECT_EQ(parse_replay_time("2026-12-02T10:00:00.5Z", start), start + std::chrono::milliseconds(500));
    EXPECT_EQ(parse_replay_time("2026-12-02 10:01", start), start + std::chrono::minutes(1));  // local = UTC here
    for (const char* bad : {"", "+", "+5", "+5x", "yesterday", "2026-12-02", "2026-12-02T25:00:00Z",
                            "2026-12-02T10:00:00+8", "9362-12-02T10:00:00Z", "1969-12-31T23:59:59Z"})
        EXPECT_FALSE(parse_replay_time(bad, start)) << bad;
}

TEST(ReplaySize, Units) {
    EXPECT_EQ(parse_size("4096"), 4096u);
    EXPECT_EQ(parse_size("500k"), 500u * 1024);
    EXPECT_EQ(parse_size("64M"), 64u << 20);
    EXPECT_EQ(parse_size("1GiB"), 1u << 30);
    for (const char* bad : {"", "0", "M", "12x", "-1", "99999999999999999999G"}) EXPECT_FALSE(parse_size(bad)) << bad;
}

TEST(Recording, HeadersOfTheWrongShapeAreRefusedNotThrown) {
    using musatop::replay::parse_header_line;
    // A "format" that is not text threw out of nlohmann's value() (found by fuzz_recording).
    EXPECT_FALSE(parse_header_line(R"({"format": 7, "format_version": 1})").ok());
    EXPECT_FALSE(parse_header_line(R"({"format": ["musatop-recording"]})").ok());
    EXPECT_FALSE(parse_header_line("[1]").ok());
    // 2^40 once wrapped to 0 as an int and was accepted.
    const auto future = parse_header_line(
        R"({"format": "musatop-recording", "format_version": 1099511627776, "started_at": "2026-12-02T10:00:00Z"})");
    ASSERT_FALSE(future.ok());
    EXPECT_NE(future.error().find("format_version 1099511627776 is newer"), std::string::npos) << future.error();
}

// A second recorder on a file one is writing is refused, appending or --force:
// two appenders interleaved their frames into an unreadable file, and --force
// truncated the live one.
TEST(Recording, ASecondRecorderOnTheSameFileIsRefused) {
    TempDir dir;
    const std::string path = (dir / "r.rec").string();
    auto first = Recorder::open({path, OpenMode::create, std::nullopt, 5}, header_at(100));
    ASSERT_TRUE(first.ok()) << first.error();
    ASSERT_TRUE(first.value()->append(sample(100)).ok());
    for (const auto mode : {OpenMode::append, OpenMode::overwrite}) {
        const auto second = Recorder::open({path, mode, std::nullopt, 5}, header_at(200));
        ASSERT_FALSE(second.ok());
        // Any reader may lock a file: who holds it is said (here: this process).
        EXPECT_EQ(second.error(), path + " is locked: PID " + std::to_string(::getpid()) + " (UID " +
                                      std::to_string(::geteuid()) +
                                      ") holds its lock (a musatop recording to it, or a reader that locked it); stop "
                                      "it first, or record to another file");
    }
    ASSERT_TRUE(first.value()->append(sample(101)).ok());
    first.value().reset();  // stopped: the file is free again, and whole
    const auto r = read_recordings({path});
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r->size(), 2u);
    EXPECT_TRUE(Recorder::open({path, OpenMode::append, std::nullopt, 5}, header_at(200)).ok());
}

// Never through a symlink: as root, `record X --force` overwrote what X pointed to.
TEST(Recording, SymlinksAndSpecialFilesAreRefused) {
    TempDir dir;
    const auto decoy = dir / "passwd";
    { std::ofstream(decoy) << "root:x:0:0\n"; }
    const auto link = dir / "r.rec";
    std::filesystem::create_symlink(decoy, link);
    for (const auto mode : {OpenMode::create, OpenMode::overwrite}) {
        const auto refused = Recorder::open({link.string(), mode, std::nullopt, 5}, header_at(100));
        ASSERT_FALSE(refused.ok());
    }
    const auto forced = Recorder::open({link.string(), OpenMode::overwrite, std::nullopt, 5}, header_at(100));
    EXPECT_EQ(forced.error(), link.string() + " is a symbolic link; musatop writes only to the file itself");
    std::ifstream kept(decoy);
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(kept), {}), "root:x:0:0\n");
    const auto dangling = dir / "d.rec";
    std::filesystem::create_symlink(dir / "created-by-root", dangling);
    EXPECT_FALSE(Recorder::open({dangling.string(), OpenMode::create, std::nullopt, 5}, header_at(100)).ok());
    EXPECT_FALSE(std::filesystem::exists(dir / "created-by-root"));
    const auto directory = Recorder::open({dir.path().string(), OpenMode::overwrite, std::nullopt, 5}, header_at(100));
    ASSERT_FALSE(directory.ok());
}

// A rename that fails during rotation stops the recording with the reason and
// keeps every frame (it used to reopen FILE with truncation); a gap in the set is
// said and the rest replayed (FILE.3 onwards used to be dropped silently).
TEST(Recording, FailedRotationKeepsTheDataAndGapsAreReported) {
    TempDir dir;
    const std::string path = (dir / "r.rec").string();
    std::filesystem::create_directories(path + ".2/blocker");  // FILE.1 cannot become FILE.2
    auto recorder = Recorder::open({path, OpenMode::create, 1, 2}, header_at(100));
    ASSERT_TRUE(recorder.ok()) << recorder.error();
    ASSERT_TRUE(recorder.value()->append(sample(100)).ok());     // fills r.rec: rotated to r.rec.1
    const auto stopped = recorder.value()->append(sample(101));  // fills the new r.rec: r.rec.1 cannot move
    ASSERT_FALSE(stopped.ok());
    EXPECT_EQ(
        stopped.error().rfind("recording to " + path + " stopped: cannot rotate " + path + ".1 to " + path + ".2: ", 0),
        0u)
        << stopped.error();
    recorder.value().reset();
    auto r = read_recordings({path});
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r->size(), 2u);  // both frames kept

    TempDir set;
    const std::string rotated = (set / "s.rec").string();
    record(rotated, {100, 101, 102, 103, 104}, OpenMode::create, 1, 4);  // s.rec.1 to s.rec.4
    std::filesystem::remove(rotated + ".2");
    r = read_recordings({rotated});
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r->size(), 3u);  // .1, .3 and .4
    ASSERT_EQ(r->recording().missing_parts.size(), 1u);
    EXPECT_EQ(r->recording().notes().back(), "missing from the rotated set: " + rotated + ".2; the rest is replayed");
}

// `record --append` after a crash: the last member had no end and the appended
// one followed it; the reader stopped at the junction (21 frames of 31). Now the
// recorder rewrites the file with every complete frame first, and the reader,
// given such a file from an older musatop, reads on past the damage.
TEST(Recording, AppendAfterACrashKeepsEveryCompleteFrame) {
    TempDir dir;
    const std::string live = (dir / "live.rec").string();
    auto recorder = Recorder::open({live, OpenMode::create, std::nullopt, 5}, header_at(100));
    ASSERT_TRUE(recorder.ok());
    for (long long t : {100, 101, 102}) ASSERT_TRUE(recorder.value()->append(sample(t)).ok());
    const std::string crashed_bytes =
        musatop::testing::read_text(live);  // as kill -9 leaves it: flushed, never finished
    // The live file is locked: an --append now is refused, nothing rewritten.
    EXPECT_FALSE(Recorder::open({live, OpenMode::append, std::nullopt, 5}, header_at(200)).ok());
    for (const std::size_t cut : {std::size_t{0}, std::size_t{7}}) {  // at a frame's end, and in the middle of one
        const std::string crashed = (dir / ("crashed" + std::to_string(cut) + ".rec")).string();
        musatop::testing::write_text(crashed, crashed_bytes.substr(0, crashed_bytes.size() - cut));
        auto appending = Recorder::open({crashed, OpenMode::append, std::nullopt, 5}, header_at(103));
        ASSERT_TRUE(appending.ok()) << appending.error();
        EXPECT_NE(appending.value()->note().find("rewritten with every complete frame"), std::string::npos);
        for (long long t : {103, 104}) ASSERT_TRUE(appending.value()->append(sample(t)).ok());
        appending.value().reset();
        const auto r = read_recordings({crashed});
        ASSERT_TRUE(r.ok()) << r.error();
        EXPECT_EQ(r->size(), cut == 0 ? 5u : 4u) << cut;  // a torn frame is the only loss
        EXPECT_EQ(r->recording().damaged_members, 0u);
        EXPECT_TRUE(r->recording().notes().empty()) << r->recording().notes().front();
    }
    // A file appended to by an older musatop: damaged member, then a whole one.
    const std::string old = (dir / "old.rec").string();
    musatop::testing::write_text(old, crashed_bytes + gzip(render_json_compact(sample(103)) + "\n"));
    const auto r = read_recordings({old});
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r->size(), 4u);
    EXPECT_EQ(r->recording().damaged_members, 1u);
    EXPECT_NE(r->recording().notes().back().find("cut short"), std::string::npos);
}
