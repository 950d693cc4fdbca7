// A root musatop acting for another user (sudo with a rule that grants musatop,
// `su -m`, `sudo -E`) runs nothing, reads no configuration or tree, and writes
// nothing that user could not have. The tests run as root and play the user with
// SUDO_UID and files owned by UID 65534.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "scenario.hpp"
#include "test_support.hpp"

using namespace musatop::testing;
namespace fs = std::filesystem;

namespace {

constexpr uid_t kUser = 65534;
const std::string kSudo = "SUDO_UID=65534";

void give(const fs::path& path) { ASSERT_EQ(::lchown(path.c_str(), kUser, kUser), 0) << path; }

// A folder of the user's with a script that leaves a mark if root runs it.
fs::path user_folder(const Scenario& scenario) {
    const fs::path dir = scenario.dir() / "user";
    fs::create_directories(dir);
    write_text(dir / "pwn", "#!/bin/sh\ntouch " + (scenario.dir() / "PWNED").string() + "\n");
    ::chmod((dir / "pwn").c_str(), 0755);
    give(dir);
    give(dir / "pwn");
    return dir;
}

}  // namespace

TEST(Privilege, RootForAUserRunsNoProgramOfTheirs) {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root";
    Scenario scenario;
    scenario.use_reference_fixtures();
    const auto dir = user_folder(scenario);
    const auto run = scenario.run({"--gmi", (dir / "pwn").string(), "--json"}, std::chrono::seconds(20), {kSudo});
    EXPECT_EQ(run.exit_code, 2);
    EXPECT_NE(run.err.find("running as root for UID 65534 (sudo), musatop runs no program that user controls: " +
                           dir.string() + " belongs to UID 65534"),
              std::string::npos)
        << run.err;
    EXPECT_FALSE(fs::exists(scenario.dir() / "PWNED"));
    // Without sudo's variables it is root's own choice, and runs.
    EXPECT_EQ(scenario.run({"--gmi", (dir / "pwn").string(), "--json"}).exit_code, 1);
    EXPECT_TRUE(fs::exists(scenario.dir() / "PWNED"));
}

TEST(Privilege, TheUsersConfigAndDriverTreeAreNotRead) {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root";
    Scenario scenario;
    scenario.use_reference_fixtures();
    const auto dir = user_folder(scenario);
    // `su -m` / `sudo -E`: HOME is the user's, and so is its config.
    const fs::path home = scenario.dir() / "home";
    write_text(home / ".config/musatop/config.toml", "gmi = \"" + (dir / "pwn").string() + "\"\n");
    for (const auto& entry : fs::recursive_directory_iterator(home)) give(entry.path());
    give(home);
    const auto run = scenario.run({"--json"});
    EXPECT_EQ(run.exit_code, 0) << run.err;  // the default GMI, root's own
    EXPECT_FALSE(fs::exists(scenario.dir() / "PWNED"));
    EXPECT_NE(run.err.find("running as root for UID 65534 (su -m (HOME " + home.string() +
                           " belongs to UID 65534)): not reading " + (home / ".config/musatop/config.toml").string()),
              std::string::npos)
        << run.err;
    // A driver tree of theirs (MUSATOP_DRIVER_ROOT kept by sudo -E) would be read as root.
    const auto tree = scenario.run({"--json"}, std::chrono::seconds(20), {"MUSATOP_DRIVER_ROOT=" + dir.string()});
    EXPECT_EQ(tree.exit_code, 2);
    EXPECT_NE(tree.err.find("reads no driver tree that user controls"), std::string::npos) << tree.err;
}

TEST(Privilege, RootForAUserWritesOnlyWhereTheyCould) {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root";
    Scenario scenario;
    scenario.use_reference_fixtures();
    scenario.set("root-only", "secret\n");
    ::chmod((scenario.dir() / "root-only").c_str(), 0600);
    const std::string target = (scenario.dir() / "root-only").string();
    const auto write = scenario.run({"--write-config", target, "--force"}, std::chrono::seconds(20), {kSudo});
    EXPECT_EQ(write.exit_code, 1);
    EXPECT_NE(write.err.find("musatop writes only where that user could: " + target + " belongs to UID 0"),
              std::string::npos)
        << write.err;
    EXPECT_EQ(read_text(scenario.dir() / "root-only"), "secret\n");
    const auto record =
        scenario.run({"record", target, "--force", "--duration", "0.2"}, std::chrono::seconds(20), {kSudo});
    EXPECT_EQ(record.exit_code, 2);
    EXPECT_EQ(read_text(scenario.dir() / "root-only"), "secret\n");
    // Into the user's own folder it goes ahead.
    const auto dir = user_folder(scenario);
    EXPECT_EQ(scenario.run({"--write-config", (dir / "c.toml").string()}, std::chrono::seconds(20), {kSudo}).exit_code,
              0);
}
