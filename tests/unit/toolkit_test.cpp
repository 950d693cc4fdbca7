#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "musatop/collection/toolkit/toolkit_version.hpp"
#include "test_support.hpp"

using namespace musatop::toolkit;
using musatop::testing::TempDir;
using musatop::testing::write_text;
namespace fs = std::filesystem;

namespace {

std::string metadata(const std::string& version) {
    return R"({"musa_toolkits": {"version": ")" + version + R"(", "git tag": "x"}, "mcc": {"version": "9.9.9"}})";
}

class ToolkitTest : public ::testing::Test {
protected:
    TempDir dir;
    SearchPlaces places() const {
        SearchPlaces p;
        p.default_root = (dir / "usr-local/musa").string();
        p.versioned_parent = (dir / "usr-local").string();
        p.path = "";
        fs::create_directories(dir / "usr-local");
        return p;
    }
    fs::path install(const std::string& name, const std::string& version) const {
        const auto root = dir / "usr-local" / name;
        write_text(root / "version.json", metadata(version));
        return root;
    }
};

}  // namespace

TEST_F(ToolkitTest, NothingInstalled) {
    const auto found = detect_toolkit_version(places());
    EXPECT_FALSE(found.version);
    EXPECT_FALSE(found.source);
    EXPECT_EQ(found.reason, "No MUSA Toolkit installation found");
}

TEST_F(ToolkitTest, StandardSymlinkWinsOverNewerInstall) {
    const auto old_root = install("musa-4.3.2", "4.3.2");
    install("musa-5.1.0", "5.1.0");
    fs::create_directory_symlink(old_root, dir / "usr-local/musa");
    const auto found = detect_toolkit_version(places());
    EXPECT_EQ(found.version, "4.3.2");
    EXPECT_EQ(found.source, (old_root / "version.json").string());
    EXPECT_FALSE(found.reason);
}

TEST_F(ToolkitTest, PlainDefaultDirectoryAndUniqueVersionedInstall) {
    install("musa", "5.1.0");
    EXPECT_EQ(detect_toolkit_version(places()).version, "5.1.0");
}

TEST_F(ToolkitTest, UniqueVersionedInstallReadsMetadataNotTheDirectoryName) {
    install("musa-99.0", "4.3.2");
    EXPECT_EQ(detect_toolkit_version(places()).version, "4.3.2");
}

TEST_F(ToolkitTest, SeveralInstallsAreNeverGuessed) {
    install("musa-4.3.2", "4.3.2");
    install("musa-5.1.0", "5.1.0");
    const auto found = detect_toolkit_version(places());
    EXPECT_FALSE(found.version);
    EXPECT_FALSE(found.source);
    EXPECT_EQ(found.reason, "Multiple Toolkit installations found; select one with MUSA_HOME or MUSA_PATH");
}

TEST_F(ToolkitTest, DuplicateSymlinksToOneInstallCountOnce) {
    const auto root = install("musa-4.3.2", "4.3.2");
    fs::create_directory_symlink(root, dir / "usr-local/musa-latest");
    EXPECT_EQ(detect_toolkit_version(places()).version, "4.3.2");
}

TEST_F(ToolkitTest, ExplicitSelectionBeatsMccAndDefault) {
    install("musa", "5.1.0");
    const auto chosen = install("musa-4.3.2", "4.3.2");
    auto p = places();
    p.musa_home = chosen.string();
    EXPECT_EQ(detect_toolkit_version(p).version, "4.3.2");
    p.musa_home = "   ";  // blank counts as unset
    p.musa_path = chosen.string();
    EXPECT_EQ(detect_toolkit_version(p).version, "4.3.2");
}

TEST_F(ToolkitTest, AliasesOfOneRootDoNotConflictButDifferentRootsDo) {
    const auto a = install("musa-4.3.2", "4.3.2");
    const auto b = install("musa-5.1.0", "5.1.0");
    fs::create_directory_symlink(a, dir / "alias");
    auto p = places();
    p.musa_home = a.string();
    p.musa_path = (dir / "alias").string();
    EXPECT_EQ(detect_toolkit_version(p).version, "4.3.2");
    p.musa_path = b.string();
    EXPECT_EQ(detect_toolkit_version(p).reason, "MUSA_HOME and MUSA_PATH select different Toolkit installations");
}

TEST_F(ToolkitTest, MccOnPathIsResolvedThroughSymlinks) {
    install("musa", "5.1.0");
    const auto root = install("musa-4.3.2", "4.3.2");
    write_text(root / "bin/mcc", "#!/bin/sh\n");
    ::chmod((root / "bin/mcc").c_str(), 0755);
    fs::create_directories(dir / "bin");
    fs::create_symlink(root / "bin/mcc", dir / "bin/mcc");
    auto p = places();
    p.path = "relative:" + (dir / "bin").string();
    EXPECT_EQ(detect_toolkit_version(p).version, "4.3.2");
}

TEST_F(ToolkitTest, SelectedButMissingNeverFallsBack) {
    install("musa", "5.1.0");
    auto p = places();
    p.musa_home = (dir / "nowhere").string();
    const auto found = detect_toolkit_version(p);
    EXPECT_FALSE(found.version);
    EXPECT_EQ(found.source, (dir / "nowhere/version.json").string());
    EXPECT_EQ(found.reason, "Toolkit metadata file is missing");
}

TEST_F(ToolkitTest, DanglingDefaultSymlinkReportsItsTarget) {
    const auto p = places();
    fs::create_directory_symlink(dir / "usr-local/musa-gone", dir / "usr-local/musa");
    const auto found = detect_toolkit_version(p);
    EXPECT_EQ(found.source, (dir / "usr-local/musa-gone/version.json").string());
    EXPECT_EQ(found.reason, "Toolkit metadata file is missing");
}

TEST_F(ToolkitTest, SymlinkLoopInExplicitSelection) {
    fs::create_symlink(dir / "loop-a", dir / "loop-b");
    fs::create_symlink(dir / "loop-b", dir / "loop-a");
    auto p = places();
    p.musa_home = (dir / "loop-a").string();
    const auto found = detect_toolkit_version(p);
    EXPECT_FALSE(found.source);
    ASSERT_TRUE(found.reason);
    EXPECT_EQ(found.reason->rfind("Cannot resolve explicitly selected Toolkit installation: ", 0), 0u);
}

TEST_F(ToolkitTest, BadMetadata) {
    const auto file = dir / "version.json";
    const auto check = [&](const std::string& content, const std::string& reason) {
        write_text(file, content);
        const auto found = read_toolkit_metadata(file.string());
        EXPECT_FALSE(found.version) << content;
        EXPECT_EQ(found.reason, reason) << content;
        EXPECT_EQ(found.source, file.string());
    };
    check("{not json", "Toolkit metadata is not valid UTF-8 JSON");
    check("{\"musa_toolkits\": {\"version\": \"4.3.2\xff\"}}", "Toolkit metadata is not valid UTF-8 JSON");
    const std::string no_version = "Toolkit metadata has no valid musa_toolkits.version string";
    for (const char* bad : {"[]", "null", "{}", R"({"musa_toolkits":[]})", R"({"musa_toolkits":"4.3.2"})",
                            R"({"musa_toolkits":{"version":null}})", R"({"musa_toolkits":{"version":true}})",
                            R"({"musa_toolkits":{"version":4.3}})", R"({"musa_toolkits":{"version":""}})",
                            R"({"musa_toolkits":{"version":"N/A"}})", R"({"musa_toolkits":{"version":"hello"}})",
                            R"({"musa_toolkits":{"version":"4.3\n2"}})"})
        check(bad, no_version);
}

TEST_F(ToolkitTest, UnreadableMetadata) {
    if (::geteuid() == 0) GTEST_SKIP() << "root reads files whatever their mode";
    const auto file = dir / "version.json";
    write_text(file, metadata("4.3.2"));
    ::chmod(file.c_str(), 0);
    EXPECT_EQ(read_toolkit_metadata(file.string()).reason, "Toolkit metadata is unreadable: Permission denied");
}

TEST(ToolkitVersionText, AcceptedAndRejected) {
    for (const char* ok : {"4.3.2", "5.1.0", "4.3.2-rc1", "4", "1.2.3+build.5", "4.3_beta"})
        EXPECT_TRUE(is_valid_toolkit_version(ok)) << ok;
    for (const char* bad : {"", "N/A", "hello", "4.3.", "4.3-", ".4", "4.3 2", "4.3--x"})
        EXPECT_FALSE(is_valid_toolkit_version(bad)) << bad;
}
