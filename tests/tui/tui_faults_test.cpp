// Faults while the screen runs: GMI output changing shape, GPUs coming and going,
// resize storms, hostile text. The program keeps running, says what is wrong, and
// never lets raw escape sequences through.
#include <gtest/gtest.h>

#include <cstdlib>

#include "scenario.hpp"
#include "tmux_session.hpp"
#include "tui_helpers.hpp"

using namespace musatop::testing;

namespace {

// Eight GPUs and one process.
void eight_gpus_one_process(const Scenario& scenario) {
    scenario.set("query.out", gmi_device_json(8));
    scenario.set("summary.out", gmi_process_table({{0, 4000001, "/usr/bin/app", 5}}));
}

}  // namespace

TEST(TuiFaults, JsonChangesShapeBetweenSamplesThenRecovers) {
    Scenario scenario;
    eight_gpus_one_process(scenario);
    TmuxSession tui(scenario, {"--interval", "0.1"}, 80, 24);
    ASSERT_TRUE(tui.wait_for("Processes 1"));
    scenario.set("query.out", R"({"GPU": {"Index": "0"}})");
    ASSERT_TRUE(tui.wait_for("GPU DATA STALE"));
    EXPECT_TRUE(has(tui.screen(), "devices: invalid GMI JSON: GPU must be an explicit list"));
    EXPECT_TRUE(has(tui.screen(), "MTT-S5000-0"));  // last good data stays
    scenario.set("query.out", gmi_device_json(8));
    ASSERT_TRUE(tui.wait_for_absent("GPU DATA STALE"));
    quit_and_check_terminal(tui);
}

TEST(TuiFaults, GpusAppearAndDisappear) {
    Scenario scenario;
    eight_gpus_one_process(scenario);
    TmuxSession tui(scenario, {"--interval", "0.1"}, 80, 34);
    ASSERT_TRUE(tui.wait_for("MTT-S5000-7"));
    tui.keys({"G"});  // trend on GPU 7
    ASSERT_TRUE(tui.wait_for("GPU 7 VRAM now"));
    scenario.set("query.out", gmi_device_json(2));
    ASSERT_TRUE(tui.wait_for_absent("MTT-S5000-7"));
    ASSERT_TRUE(tui.wait_for("ALL 2 VRAM now"));  // the target GPU left: back to ALL
    // Two files, written one after the other: a round may read the new one and the
    // old other, so each is waited for (the CI rehearsal caught a round in between).
    scenario.set("summary.out", gmi_process_table({}));
    scenario.set("query.out", R"({"GPU": []})");
    ASSERT_TRUE(tui.wait_for("No GPUs found."));
    EXPECT_TRUE(tui.wait_for("No GPU processes running.")) << tui.screen();
    scenario.set("query.out", gmi_device_json(8));
    ASSERT_TRUE(tui.wait_for("MTT-S5000-7"));
    quit_and_check_terminal(tui);
}

TEST(TuiFaults, ProcessRowsForAnUnknownGpu) {
    Scenario scenario;
    eight_gpus_one_process(scenario);
    TmuxSession tui(scenario, {"--interval", "0.1"}, 80, 24);
    ASSERT_TRUE(tui.wait_for("Processes 1"));
    scenario.set("summary.out", gmi_process_table({{9, 4000001, "/usr/bin/app", 5}}));
    ASSERT_TRUE(tui.wait_for("PROCESS DATA STALE"));
    EXPECT_TRUE(has(tui.screen(), "refers to a GPU absent"));
    quit_and_check_terminal(tui);
}

TEST(TuiFaults, HangingGmiKeepsTheScreenResponsiveAndQuitsAtOnce) {
    Scenario scenario;
    eight_gpus_one_process(scenario);
    TmuxSession tui(scenario, {"--interval", "0.1", "--timeout", "30"}, 80, 24);
    ASSERT_TRUE(tui.wait_for("Processes 1"));
    scenario.set("query.hang", "");
    scenario.set("summary.hang", "");
    ASSERT_TRUE(
        wait_for([&] { return read_text(scenario.dir() / "calls.log").find("hang-child") != std::string::npos; }));
    tui.keys({"?"});
    ASSERT_TRUE(tui.wait_for("musatop 0.3.0 help"));  // the UI does not wait for GMI
    tui.keys({"Escape"});
    ASSERT_TRUE(tui.wait_for("Processes 1"));
    quit_and_check_terminal(tui);  // stop cancels the hung calls instead of waiting 30 s
    std::istringstream log(read_text(scenario.dir() / "calls.log"));
    for (std::string kind, pid; log >> kind >> pid;) EXPECT_TRUE(wait_until_dead(std::stoi(pid))) << kind;
}

TEST(TuiFaults, GmiMissingThenNotExecutable) {
    Scenario scenario;
    std::filesystem::remove(scenario.dir() / "bin/mthreads-gmi");
    TmuxSession tui(scenario, {"--interval", "0.1"}, 80, 24);
    ASSERT_TRUE(tui.wait_for("GPU data unavailable."));
    EXPECT_TRUE(has(tui.screen(), "GPU DATA STALE | PROCESS DATA STALE"));
    EXPECT_TRUE(has(tui.screen(), "Process data unavailable."));
    EXPECT_TRUE(has(tui.screen(), "devices: GMI executable not found: mthreads-gmi"));
    write_text(scenario.dir() / "bin/mthreads-gmi", "#!/bin/sh\n");  // appears, without an x bit
    ASSERT_TRUE(tui.wait_for("devices: GMI command could not start: Permission denied"));
    quit_and_check_terminal(tui);
}

TEST(TuiFaults, ResizeStorm) {
    Scenario scenario;
    eight_gpus_one_process(scenario);
    TmuxSession tui(scenario, {"--interval", "0.1"}, 80, 24);
    ASSERT_TRUE(tui.wait_for("Processes 1"));
    const int sizes[][2] = {{80, 24}, {61, 13}, {140, 50}, {40, 10}, {79, 18}, {200, 60}, {60, 12}, {100, 34}};
    for (int i = 0; i < 120; ++i) tui.resize(sizes[i % 8][0], sizes[i % 8][1]);
    tui.resize(120, 34);
    ASSERT_TRUE(tui.wait_for("──────now┼"));
    EXPECT_TRUE(has(tui.screen(), "MTT-S5000-7"));
    quit_and_check_terminal(tui);
}

TEST(TuiSecurity, HostileTextNeverReachesTheTerminalRaw) {
    Scenario scenario;
    // Device name and process name from GMI carry OSC (window title), CSI (clear
    // screen), a bidi override and a C1 CSI; the command line of a real process too.
    scenario.set("query.out",
                 R"({"GPU":[{"Index":"0","GPU UUID":"u0","Product Name":"GPU\u001b]0;pwned\u0007\u202eX\u009b2J"}]})");
    SleepChild child("299");
    scenario.set("summary.out",
                 gmi_process_table({{0, 4000001, "bad\x1b]2;pwned\x07name", 5}, {0, child.pid(), "sleep", 5}}));
    TmuxSession tui(scenario, {"--interval", "0.1"}, 100, 30);
    ASSERT_TRUE(tui.wait_for("Processes 2"));
    const std::string raw = tui.screen_with_escapes();
    EXPECT_FALSE(has(raw, "\x1b]0;") || has(raw, "\x1b]2;"));
    EXPECT_FALSE(has(raw, "\x1b[2J"));
    EXPECT_FALSE(has(raw, "\xe2\x80\xae"));  // U+202E
    EXPECT_TRUE(has(tui.screen(), "bad ]2;pwned name"));
    tui.keys({"End", "Enter"});
    ASSERT_TRUE(tui.wait_for("Full command:"));
    EXPECT_FALSE(has(tui.screen_with_escapes(), "\x1b[2J"));
    tui.keys({"Escape"});
    quit_and_check_terminal(tui);
}

// Stopped from outside (SIGSTOP, not Ctrl-Z) while the shell puts the terminal
// back in line mode with echo and writes on it: on SIGCONT the screen sets its
// modes again (a single key works, no Enter) and repaints whole.
TEST(TuiFaults, StoppedFromOutsideAndContinuedTheScreenIsWholeAgain) {
    Scenario scenario;
    eight_gpus_one_process(scenario);
    TmuxSession tui(scenario, {"--interval", "0.1"}, 80, 24);
    ASSERT_TRUE(tui.wait_for("Processes 1"));
    const std::string tty = tui.pane_format("#{pane_tty}");
    ASSERT_EQ(tty.rfind("/dev/", 0), 0u) << tty;
    tui.signal_program("STOP");
    ASSERT_EQ(std::system(("stty -F " + tty + " icanon echo && printf '\\033[HGARBAGE-XYZ' > " + tty).c_str()), 0);
    ASSERT_TRUE(tui.wait_for("GARBAGE-XYZ")) << tui.screen();
    tui.signal_program("CONT");
    ASSERT_TRUE(tui.wait_for_absent("GARBAGE-XYZ"));
    ASSERT_TRUE(tui.wait_for("Processes 1")) << tui.screen();
    tui.type("q");  // one key, no Enter: the screen reads keys one by one again
    ASSERT_TRUE(tui.wait_for_exit());
    EXPECT_EQ(tui.exit_code(), 0);
    EXPECT_EQ(tui.stty_before(), tui.stty_after());
}
