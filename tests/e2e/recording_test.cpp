// `musatop record` and `musatop replay` as a user runs them, against the fake GMI
// whose data changes every round.
#include <gtest/gtest.h>

#include <cstdlib>
#include <signal.h>
#include <sys/wait.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "musatop/replay/recorder.hpp"

#include "child_process.hpp"
#include "demo_samples.hpp"
#include "scenario.hpp"
#include "test_support.hpp"

using namespace musatop::testing;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

// Three different rounds, repeating: 1, 2 and 3 GPUs at 10/50/90 %.
void changing(const Scenario& scenario) {
    scenario.set("query.out.1", gmi_device_json(1, "10%"));
    scenario.set("query.out.2", gmi_device_json(2, "50%"));
    scenario.set("query.out.3", gmi_device_json(3, "90%"));
    scenario.set("query.cycle", "3");
    scenario.set("summary.out", gmi_process_table({{0, 4000001, "python train.py", 100}}));
}

std::vector<json> json_lines(const std::string& text) {
    std::vector<json> out;
    for (std::size_t at = 0; at < text.size();) {
        const auto end = text.find('\n', at);
        out.push_back(json::parse(text.substr(at, end - at)));
        at = end + 1;
    }
    return out;
}

std::vector<std::string> env_of(const Scenario& scenario) {
    return {"PATH=" + scenario.path_variable(), "FAKE_GMI_DIR=" + scenario.dir().string(),
            "MUSA_HOME=", "MUSA_PATH=", "TZ=UTC"};
}

}  // namespace

TEST(RecordCommand, ReplayGivesExactlyTheRecordedSnapshots) {
    Scenario scenario;
    changing(scenario);
    const std::string file = (scenario.dir() / "day.rec").string();
    const auto recorded = scenario.run({"record", file, "--interval", "0.1", "--duration", "1"}, 20s);
    ASSERT_EQ(recorded.exit_code, 0) << recorded.err;
    EXPECT_NE(recorded.err.find("musatop record: recording to " + file), std::string::npos);

    const auto lines = scenario.run({"replay", file, "--json", "--from", "+0s"}, 20s);
    ASSERT_EQ(lines.exit_code, 0) << lines.err;
    const auto snapshots = json_lines(lines.out);
    ASSERT_GE(snapshots.size(), 6u);
    ASSERT_LE(snapshots.size(), 12u);
    for (std::size_t k = 0; k < snapshots.size(); ++k) {
        const std::string time = snapshots[k]["sampled_at"];
        const auto at = scenario.run({"replay", file, "--json", "--at", time}, 20s);
        ASSERT_EQ(at.exit_code, 0) << at.err;
        EXPECT_EQ(json::parse(at.out), snapshots[k]) << k;
        EXPECT_EQ(snapshots[k]["devices"].size(), k % 3 + 1);  // the fake's cycle, in order
    }
    // --once prints the text of the snapshot in force; filters apply.
    const auto text = scenario.run({"replay", file, "--once", "--gpu", "0"}, 20s);
    ASSERT_EQ(text.exit_code, 0);
    EXPECT_NE(text.out.find("MTT-S5000-0"), std::string::npos);
    EXPECT_EQ(text.out.find("MTT-S5000-1"), std::string::npos);
    const auto range = scenario.run(
        {"replay", file, "--json", "--from", snapshots[1]["sampled_at"], "--to", snapshots[3]["sampled_at"]}, 20s);
    EXPECT_EQ(json_lines(range.out).size(), 3u);
    // A window past either end is cut to the recording (as `head` on a short file);
    // one that misses it is an error; the first second counts as the recording's.
    const auto all = scenario.run({"replay", file, "--json", "--from", "+0s", "--to", "+1h"}, 20s);
    ASSERT_EQ(all.exit_code, 0) << all.err;
    EXPECT_EQ(json_lines(all.out).size(), snapshots.size());
    const std::string first = snapshots[0]["sampled_at"];
    const std::string whole_second = first.substr(0, 19) + "Z";  // 2026-12-04T11:58:53Z, before the first frame
    const auto early = scenario.run({"replay", file, "--json", "--at", whole_second}, 20s);
    ASSERT_EQ(early.exit_code, 0) << early.err;
    EXPECT_EQ(json::parse(early.out), snapshots[0]);
    const auto after = scenario.run({"replay", file, "--json", "--from", "+1h"}, 20s);
    EXPECT_EQ(after.exit_code, 2);
    EXPECT_NE(after.err.find("is outside the recording"), std::string::npos);
}

TEST(RecordCommand, OverwriteAppendAndBadFlags) {
    Scenario scenario;
    changing(scenario);
    const std::string file = (scenario.dir() / "r.rec").string();
    ASSERT_EQ(scenario.run({"record", file, "--interval", "0.1", "--duration", "0.2"}).exit_code, 0);
    const auto again = scenario.run({"record", file, "--duration", "0.2"});
    EXPECT_EQ(again.exit_code, 1);
    EXPECT_NE(again.err.find("exists; --append continues it, --force replaces it"), std::string::npos);
    const auto before = json_lines(scenario.run({"replay", file, "--json", "--from", "+0s"}).out).size();
    ASSERT_EQ(scenario.run({"record", file, "--append", "--interval", "0.1", "--duration", "0.2"}).exit_code, 0);
    EXPECT_GT(json_lines(scenario.run({"replay", file, "--json", "--from", "+0s"}).out).size(), before);
    EXPECT_EQ(scenario.run({"record", file, "--append", "--force"}).exit_code, 2);
    EXPECT_EQ(scenario.run({"record", file, "--max-size", "lots"}).exit_code, 2);
    const auto no_terminal = scenario.run({"replay", file});  // no screen without a terminal: the text
    EXPECT_EQ(no_terminal.exit_code, 0);
    EXPECT_EQ(no_terminal.out.rfind("musatop | ", 0), 0u);
    EXPECT_EQ(scenario.run({"replay", file, "--json", "--at", "yesterday"}).exit_code, 2);
    scenario.set("plain.txt", "hello");
    const auto not_gzip = scenario.run({"replay", (scenario.dir() / "plain.txt").string(), "--json"});
    EXPECT_EQ(not_gzip.exit_code, 1);
    EXPECT_EQ(not_gzip.err, "musatop replay: " + (scenario.dir() / "plain.txt").string() + ": not a gzip file\n");
}

// A disk that filled at a rotation leaves the current file empty: replay reads the
// parts before it and says what it skipped, --append starts the file anew.
TEST(RecordCommand, AnEmptyCurrentFileCostsNothingOfTheSet) {
    Scenario scenario;
    changing(scenario);
    const std::string file = (scenario.dir() / "r.rec").string();
    ASSERT_EQ(scenario.run({"record", file, "--interval", "0.1", "--duration", "0.3"}).exit_code, 0);
    std::filesystem::rename(file, file + ".1");
    scenario.set("r.rec", "");
    scenario.set("r.rec.7", "a stray file named like a part\n");
    const auto replayed = scenario.run({"replay", file, "--json", "--from", "+0s"});
    EXPECT_EQ(replayed.exit_code, 0) << replayed.err;
    const auto before = json_lines(replayed.out).size();
    EXPECT_GE(before, 2u);
    EXPECT_NE(replayed.err.find("skipped " + file + ": empty file"), std::string::npos) << replayed.err;
    EXPECT_NE(replayed.err.find("skipped " + file + ".7"), std::string::npos) << replayed.err;
    const auto appended = scenario.run({"record", file, "--append", "--interval", "0.1", "--duration", "0.3"});
    EXPECT_EQ(appended.exit_code, 0) << appended.err;
    EXPECT_NE(appended.err.find("was empty"), std::string::npos) << appended.err;
    EXPECT_GT(json_lines(scenario.run({"replay", file, "--json", "--from", "+0s"}).out).size(), before);
}

// --record to a folder it cannot write to is refused before any screen starts
// (it used to record nothing and exit 0); so is a symlink for `record`.
TEST(RecordCommand, AnUnwritablePathOrASymlinkIsRefusedAtOnce) {
    Scenario scenario;
    changing(scenario);
    const auto nowhere = scenario.run({"--record", "/nonexistent/dir/x.rec"});
    EXPECT_EQ(nowhere.exit_code, 1);
    EXPECT_EQ(nowhere.err,
              "musatop: cannot record to /nonexistent/dir/x.rec: /nonexistent/dir: No such file or directory\n");
    scenario.set("decoy", "keep me\n");
    std::filesystem::create_symlink(scenario.dir() / "decoy", scenario.dir() / "link.rec");
    const auto link = (scenario.dir() / "link.rec").string();
    const auto forced = scenario.run({"record", link, "--force", "--duration", "0.2"});
    EXPECT_EQ(forced.exit_code, 1);
    EXPECT_NE(forced.err.find(link + " is a symbolic link; musatop writes only to the file itself"), std::string::npos)
        << forced.err;
    EXPECT_EQ(musatop::testing::read_text(scenario.dir() / "decoy"), "keep me\n");
}

// Every stop signal of every mode (SIGQUIT used to kill a recording without
// closing it) ends the recording whole, exit 0; kill -9 loses nothing written.
TEST(RecordCommand, StopSignalsCloseTheFileAndKillNineLosesNothingWritten) {
    for (int signal : {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGKILL}) {
        Scenario scenario;
        changing(scenario);
        const std::string file = (scenario.dir() / "r.rec").string();
        BackgroundChild recorder({MUSATOP_BINARY, "record", file, "--interval", "0.05"}, env_of(scenario));
        ASSERT_TRUE(wait_for([&] { return scenario.calls("query") >= 6; }, 20s));
        const int recorded_rounds = scenario.calls("query");
        ::kill(recorder.pid(), signal);
        const int status = recorder.wait(5s);
        if (signal != SIGKILL) {
            ASSERT_TRUE(WIFEXITED(status)) << signal;
            EXPECT_EQ(WEXITSTATUS(status), 0);
            EXPECT_EQ(std::system(("gzip -t " + file).c_str()), 0) << "not closed whole after signal " << signal;
        }
        const auto replayed = scenario.run({"replay", file, "--json", "--from", "+0s"});
        ASSERT_EQ(replayed.exit_code, 0) << replayed.err;
        // Every round finished before the signal is there (the one in flight may not be).
        EXPECT_GE(json_lines(replayed.out).size() + 1, static_cast<std::size_t>(recorded_rounds)) << signal;
        EXPECT_EQ(replayed.err.find("incomplete"), std::string::npos) << replayed.err;
    }
}

TEST(RecordCommand, AFileSizeLimitIsAWriteErrorNotASilentDeath) {
    Scenario scenario;
    changing(scenario);
    const std::string file = (scenario.dir() / "r.rec").string();
    const auto run =
        run_child({"/usr/bin/prlimit", "--fsize=4096", MUSATOP_BINARY, "record", file, "--interval", "0.05"},
                  env_of(scenario), 30s);
    EXPECT_EQ(run.exit_code, 1) << run.err;
    EXPECT_NE(run.err.find("musatop record: recording to " + file + " stopped: File too large"), std::string::npos)
        << run.err;
    EXPECT_EQ(scenario.run({"replay", file, "--json"}).exit_code, 0);  // what was written replays
}

TEST(RecordCommand, TheCommandLineFiltersChooseWhatIsKept) {
    Scenario scenario;
    changing(scenario);
    const std::string file = (scenario.dir() / "r.rec").string();
    ASSERT_EQ(scenario.run({"record", file, "--interval", "0.1", "--duration", "0.35", "--gpu", "1"}).exit_code, 0);
    const auto lines = json_lines(scenario.run({"replay", file, "--json", "--from", "+0s"}).out);
    ASSERT_GE(lines.size(), 3u);
    for (const auto& snapshot : lines) {
        for (const auto& device : snapshot["devices"]) EXPECT_EQ(device["index"], 1);
        EXPECT_LE(snapshot["devices"].size(), 1u);
    }
}

// A recorder whose GMI fails says so once instead of filling the file silently.
TEST(RecordCommand, AFailingSourceIsSaidOnceNotRecordedSilently) {
    Scenario scenario;
    changing(scenario);
    scenario.set("query.rc", "3");
    const std::string file = (scenario.dir() / "r.rec").string();
    const auto run = scenario.run({"record", file, "--interval", "0.05", "--duration", "0.5"}, 20s);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NE(run.err.find("musatop record: devices fail from the first round: GMI exited with code 3"),
              std::string::npos)
        << run.err;
    EXPECT_EQ(run.err.find("devices fail"), run.err.rfind("devices fail"));  // once, however many rounds
}

// Frames written after the wall clock stepped back (NTP, a resumed VM) are in the
// window that began before them: --from +0s prints every frame (issue 33 #7).
TEST(RecordCommand, AClockStepBackKeepsItsFramesInTheWindow) {
    Scenario scenario;
    const std::string file = (scenario.dir() / "stepped.rec").string();
    {
        musatop::replay::Header header;
        header.started_at = musatop::testing::at(1000);
        auto recorder =
            musatop::replay::Recorder::open({file, musatop::replay::OpenMode::create, std::nullopt, 5}, header);
        ASSERT_TRUE(recorder.ok()) << recorder.error();
        for (long long t : {1000, 1001, 1002, 990, 991})
            ASSERT_TRUE(recorder.value()->append(musatop::testing::sample(t)).ok());
    }
    const auto all = scenario.run({"replay", file, "--json", "--from", "+0s"});
    EXPECT_EQ(all.exit_code, 0) << all.err;
    EXPECT_EQ(json_lines(all.out).size(), 5u) << all.out;
    const auto window = scenario.run({"replay", file, "--json", "--from", "+0s", "--to", "+1s"});
    EXPECT_EQ(json_lines(window.out).size(), 2u) << window.out;  // 1000 and 1001: it ends at 1002
}
