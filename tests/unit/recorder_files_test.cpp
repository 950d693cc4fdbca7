// Who may read and write a recording: the file musatop makes and the files it
// refuses to write into.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "musatop/replay/recorder.hpp"
#include "demo_samples.hpp"
#include "test_support.hpp"

using namespace musatop;
using namespace musatop::replay;
using musatop::testing::at;
using musatop::testing::header_at;
using musatop::testing::sample;
using musatop::testing::TempDir;

// A recording holds every user's command lines: a new one is 0600 whatever the
// umask, and --append's repair keeps the mode, owner and group it was given.
TEST(Recording, ANewFileIs0600AndTheRepairKeepsModeAndOwner) {
    TempDir dir;
    const std::string live = (dir / "live.rec").string();
    const mode_t umask_before = ::umask(0);
    auto recorder = Recorder::open({live, OpenMode::create, std::nullopt, 5}, header_at(100));
    ::umask(umask_before);
    ASSERT_TRUE(recorder.ok());
    ASSERT_TRUE(recorder.value()->append(sample(100)).ok());
    struct stat st {};
    ASSERT_EQ(::stat(live.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0600u);
    const std::string crashed = (dir / "crashed.rec").string();
    musatop::testing::write_text(crashed, musatop::testing::read_text(live));  // never finished: repaired on append
    recorder.value().reset();
    ASSERT_EQ(::chmod(crashed.c_str(), 0640), 0);
    const bool root = ::geteuid() == 0;
    if (root) {
        ASSERT_EQ(::chown(crashed.c_str(), 0, 4), 0);  // root:adm
    }
    auto appending = Recorder::open({crashed, OpenMode::append, std::nullopt, 5}, header_at(101));
    ASSERT_TRUE(appending.ok()) << appending.error();
    EXPECT_NE(appending.value()->note().find("rewritten"), std::string::npos);
    ASSERT_EQ(::stat(crashed.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0640u);
    if (root) {
        EXPECT_EQ(st.st_uid, 0u);
        EXPECT_EQ(st.st_gid, 4u);
    }
}

// A hard link another user made to a file of root's, or a file of another user,
// is never written into (issue 33 #7).
TEST(Recording, AFileOfManyNamesOrOfAnotherUserIsRefused) {
    TempDir dir;
    const std::string target = (dir / "target").string(), link = (dir / "link.rec").string();
    musatop::testing::write_text(target, "root's own\n");
    ASSERT_EQ(::link(target.c_str(), link.c_str()), 0);
    const auto linked = Recorder::open({link, OpenMode::overwrite, std::nullopt, 5}, header_at(100));
    ASSERT_FALSE(linked.ok());
    EXPECT_NE(linked.error().find("has 2 names (hard links)"), std::string::npos) << linked.error();
    EXPECT_EQ(musatop::testing::read_text(target), "root's own\n");
    if (::geteuid() != 0) return;
    const std::string theirs = (dir / "theirs.rec").string();
    musatop::testing::write_text(theirs, "");
    ASSERT_EQ(::chown(theirs.c_str(), 65534, 65534), 0);
    const auto other = Recorder::open({theirs, OpenMode::overwrite, std::nullopt, 5}, header_at(100));
    ASSERT_FALSE(other.ok());
    EXPECT_NE(other.error().find("belongs to UID 65534"), std::string::npos) << other.error();
}

// A repair killed midway leaves FILE.tmp.XXXXXX behind; the next one removes it
// (it holds the recording's lock: no other repair is writing one).
TEST(Recording, ATemporaryFileOfAKilledRepairIsRemovedByTheNext) {
    TempDir dir;
    const std::string live = (dir / "live.rec").string();
    auto recorder = Recorder::open({live, OpenMode::create, std::nullopt, 5}, header_at(100));
    ASSERT_TRUE(recorder.ok());
    ASSERT_TRUE(recorder.value()->append(sample(100)).ok());
    const std::string crashed = (dir / "crashed.rec").string();
    musatop::testing::write_text(crashed, musatop::testing::read_text(live));
    recorder.value().reset();
    musatop::testing::write_text(crashed + ".tmp.Ab3dE9", "half a repair");
    musatop::testing::write_text(crashed + ".tmp.other-name", "not ours to judge");
    auto appending = Recorder::open({crashed, OpenMode::append, std::nullopt, 5}, header_at(101));
    ASSERT_TRUE(appending.ok()) << appending.error();
    EXPECT_FALSE(std::filesystem::exists(crashed + ".tmp.Ab3dE9"));
    EXPECT_TRUE(std::filesystem::exists(crashed + ".tmp.other-name"));
}
