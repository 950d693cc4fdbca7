// Reading recordings without holding them: the gzip stream's checkpoints, the
// index's frames decoded in any order, lines without an end, clock steps.
#include <gtest/gtest.h>
#include <zlib.h>

#include <random>

#include "musatop/output/json_output.hpp"
#include "musatop/replay/gzip_stream.hpp"
#include "musatop/replay/recorder.hpp"
#include "musatop/replay/recording.hpp"
#include "demo_samples.hpp"
#include "test_support.hpp"

using namespace musatop;
using namespace musatop::replay;
using musatop::testing::at;
using musatop::testing::sample;
using musatop::testing::TempDir;

namespace {

// Lines compressed as the recorder does: one member, a sync flush after each line.
std::string gzip_lines(const std::vector<std::string>& lines, bool finish = true) {
    z_stream z{};
    deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 9, Z_DEFAULT_STRATEGY);
    std::string out;
    unsigned char buffer[65536];
    for (std::size_t i = 0; i <= lines.size(); ++i) {
        const std::string text = i < lines.size() ? lines[i] + "\n" : "";
        if (i == lines.size() && !finish) break;
        z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
        z.avail_in = static_cast<uInt>(text.size());
        do {
            z.next_out = buffer;
            z.avail_out = sizeof buffer;
            deflate(&z, i < lines.size() ? Z_SYNC_FLUSH : Z_FINISH);
            out.append(reinterpret_cast<char*>(buffer), sizeof buffer - z.avail_out);
        } while (z.avail_out == 0);
    }
    deflateEnd(&z);
    return out;
}

std::vector<std::string> numbered_lines(int count, int from = 0) {
    std::vector<std::string> lines;
    for (int i = from; i < from + count; ++i) lines.push_back("line " + std::to_string(i) + std::string(97, 'x'));
    return lines;
}

std::string read_rest(GzipStream& stream) {
    std::string out;
    char buffer[1000];  // small reads: the stream's own buffering is exercised too
    for (;;) {
        auto got = stream.read(buffer, sizeof buffer);
        EXPECT_TRUE(got.ok()) << got.error();
        if (!got.ok() || got.value() == 0) return out;
        out.append(buffer, got.value());
    }
}

std::string joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& line : lines) out += line + "\n";
    return out;
}

void record(const std::string& path, const std::vector<long long>& times) {
    Header h;
    h.musatop_version = "test";
    h.started_at = at(times.front());
    auto recorder = Recorder::open({path, OpenMode::create, std::nullopt, 5}, h);
    ASSERT_TRUE(recorder.ok()) << recorder.error();
    for (long long t : times) ASSERT_TRUE(recorder.value()->append(sample(t)).ok());
}

}  // namespace

// Every checkpoint, taken by one stream, lets another resume there and read the
// same text to the end: across a second member and across a damaged one.
TEST(GzipStream, EveryCheckpointResumesToTheSameText) {
    const auto first = numbered_lines(400);
    const auto second = numbered_lines(300, 400);
    std::string damaged = gzip_lines(first, false);
    damaged.resize(damaged.size() - 3);  // a member cut short (a recorder killed)
    for (const std::string& bytes : {gzip_lines(first) + gzip_lines(second), damaged + gzip_lines(second)}) {
        GzipStream whole(bytes, 4096);
        const std::string text = read_rest(whole);
        EXPECT_EQ(text.substr(text.size() - joined(second).size()), joined(second));
        const auto points = whole.take_checkpoints();
        ASSERT_GT(points.size(), 10u);  // spread over both members
        EXPECT_GT(points.back().member_start, 0u);
        for (const auto& point : points) {
            GzipStream resumed(bytes);
            ASSERT_TRUE(resumed.resume(point).ok());
            EXPECT_EQ(read_rest(resumed), text.substr(point.text_offset)) << point.text_offset;
        }
    }
}

TEST(GzipStream, DamageIsReportedAndAFileCutShortEndsTheText) {
    const auto lines = numbered_lines(50);
    std::string damaged = gzip_lines(lines, false);
    damaged.resize(damaged.size() - 3);
    const std::string bytes = damaged + gzip_lines({"after"});  // outlives the stream, which does not copy it
    GzipStream stream(bytes);
    const std::string text = read_rest(stream);
    EXPECT_EQ(stream.report().damaged_members, 1u);
    EXPECT_TRUE(stream.report().ended_cleanly);
    EXPECT_EQ(text.substr(text.size() - 6), "after\n");
    GzipStream cut(damaged);
    read_rest(cut);
    EXPECT_FALSE(cut.report().ended_cleanly);
    GzipStream garbage(std::string_view("\x1f\x8b\x08\x00garbage-garbage"));
    char buffer[16];
    EXPECT_EQ(garbage.read(buffer, sizeof buffer).error(), "corrupt gzip data");
    GzipStream plain(std::string_view("plain text"));
    EXPECT_EQ(plain.read(buffer, sizeof buffer).error(), "not a gzip file");
}

// Frames decoded in any order are the frames written (the cursor goes on from the
// last one, or starts again at a checkpoint).
TEST(RecordingIndex, FramesDecodeTheSameInAnyOrder) {
    TempDir dir;
    const std::string path = (dir / "r.rec").string();
    std::vector<long long> times;
    for (long long t = 1000; t < 1300; ++t) times.push_back(t);
    record(path, times);
    auto index = read_recordings({path});
    ASSERT_TRUE(index.ok()) << index.error();
    ASSERT_EQ(index->size(), times.size());
    std::vector<std::size_t> order(times.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), std::mt19937(7));
    for (std::size_t i : order) {
        auto snapshot = index.value().load(i);
        ASSERT_TRUE(snapshot.ok()) << snapshot.error();
        EXPECT_EQ(render_json_compact(snapshot.value()), render_json_compact(sample(times[i]))) << i;
    }
    EXPECT_EQ(index->in_force_at(at(1100) + std::chrono::milliseconds(500)), 100u);
    EXPECT_FALSE(index->in_force_at(at(999)));
}

// A line without an end (a gzip bomb: 20 MiB of one byte) is not read into memory:
// the frames before it are kept and the rest of the file is said to be skipped.
// A record over the limit (a frame swollen by other users' command lines) is
// skipped and said; the records after it are replayed.
TEST(RecordingIndex, AnOversizedRecordIsSkippedAndTheRestRead) {
    TempDir dir;
    const std::string path = (dir / "bomb.rec").string();
    Header h;
    h.started_at = at(100);
    std::vector<std::string> lines{header_line(h), render_json_compact(sample(100)), render_json_compact(sample(101)),
                                   std::string(20u << 20, 'a'), render_json_compact(sample(102))};
    const std::string bytes = gzip_lines(lines);
    EXPECT_LT(bytes.size(), 100'000u);
    musatop::testing::write_text(path, bytes);
    auto index = read_recordings({path});
    ASSERT_TRUE(index.ok()) << index.error();
    ASSERT_EQ(index->size(), 3u);
    EXPECT_EQ(index.value().load(2)->sampled_at, at(102));
    ASSERT_EQ(index->recording().oversized.size(), 1u);
    EXPECT_EQ(index->recording().notes().back().rfind("a record longer than 16 MiB in " + path + " at byte ", 0), 0u);
    EXPECT_NE(index->recording().notes().back().find("the records after it are replayed"), std::string::npos);
}

// One part that cannot be read (the current file left empty by a full disk, a
// stray text file named like a part) costs that part, never the set.
TEST(RecordingIndex, AnUnreadablePartIsNamedAndTheOthersReplayed) {
    TempDir dir;
    const std::string path = (dir / "set.rec").string();
    record(path + ".2", {100, 101});
    record(path + ".1", {102, 103});
    musatop::testing::write_text(path + ".3", "not a recording\n");
    musatop::testing::write_text(path, "");
    auto index = read_recordings({path});
    ASSERT_TRUE(index.ok()) << index.error();
    ASSERT_EQ(index->size(), 4u);
    EXPECT_EQ(index.value().load(0)->sampled_at, at(100));
    EXPECT_EQ(index.value().load(3)->sampled_at, at(103));
    const auto& skipped = index->recording().skipped_parts;
    ASSERT_EQ(skipped.size(), 2u);
    EXPECT_NE(skipped[0].find(path + ".3"), std::string::npos) << skipped[0];
    EXPECT_NE(skipped[1].find(path + ": empty file"), std::string::npos) << skipped[1];
    // Nothing readable at all is still an error.
    musatop::testing::write_text(path + ".1", "x");
    musatop::testing::write_text(path + ".2", "x");
    EXPECT_FALSE(read_recordings({path}).ok());
}

// A wall clock stepped back (NTP, a resumed VM): every frame is replayed in the
// order written (15 of 20 used to be dropped), and the step is said.
TEST(RecordingIndex, AClockStepBackKeepsEveryFrameInTheOrderWritten) {
    TempDir dir;
    const std::string path = (dir / "r.rec").string();
    const std::vector<long long> times{100, 101, 102, 103, 104, 90, 91, 92, 93, 94, 95, 96};
    record(path, times);
    auto index = read_recordings({path});
    ASSERT_TRUE(index.ok()) << index.error();
    ASSERT_EQ(index->size(), times.size());
    for (std::size_t i = 0; i < times.size(); ++i) EXPECT_EQ(index.value().load(i)->sampled_at, at(times[i]));
    ASSERT_EQ(index->recording().clock_steps.size(), 1u);
    EXPECT_EQ(index->recording().clock_steps[0].frame, 5u);
    EXPECT_EQ(index->first_time(), at(90));
    EXPECT_EQ(index->last_time(), at(104));
    EXPECT_EQ(index->in_force_at(at(95)), 10u);  // only the frames after the step reach 95
    EXPECT_EQ(index->in_force_at(at(103)), 3u);
}
