// The real binary in tmux against the fake GMI: layouts, keys, dialogs, SIGTERM,
// colour modes and terminal restoration.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <functional>
#include <map>
#include <sstream>

#include "musatop/output/sanitize.hpp"
#include "scenario.hpp"
#include "tmux_session.hpp"
#include "tui_helpers.hpp"

using namespace musatop::testing;
using namespace std::chrono_literals;

namespace {

// True when an SGR sequence sets a foreground or background colour (39/49 only reset).
bool sets_a_colour(const std::string& screen) {
    for (std::size_t at = screen.find("\x1b["); at != std::string::npos; at = screen.find("\x1b[", at + 1)) {
        const auto end = screen.find('m', at);
        if (end == std::string::npos) break;
        std::string params = screen.substr(at + 2, end - at - 2) + ";";
        for (std::size_t start = 0, semi; (semi = params.find(';', start)) != std::string::npos; start = semi + 1) {
            const std::string p = params.substr(start, semi - start);
            if (p.size() == 2 && (p[0] == '3' || p[0] == '4') && p[1] >= '0' && p[1] <= '8') return true;
        }
    }
    return false;
}

}  // namespace

TEST(TuiLayout, At80x24) {
    Scenario scenario;
    eight_gpus(scenario);
    TmuxSession tui(scenario, {"--interval", "0.2"}, 80, 24);
    ASSERT_TRUE(tui.wait_for("Processes 12")) << tui.screen();
    const auto lines = tui.lines();
    EXPECT_EQ(lines[1], "Driver test-driver  GMI 2.3.3  MUSA N/A");
    EXPECT_TRUE(has(lines[2], "GPUs 1-4/8"));
    EXPECT_EQ(lines[3], "GPU NAME         UTIL            VRAM                 USED/TOTAL TEMP   POWER W");
    EXPECT_EQ(lines[4], "  0 MTT-S5000-0  ██▌         25% ▎            2%     2.0/80.0GiB  40C   120/300");
    EXPECT_TRUE(has(lines[7], "  3 MTT-S5000-3"));
    EXPECT_FALSE(has(tui.screen(), "MTT-S5000-4"));
    EXPECT_EQ(lines[8].rfind("┌ Trend ▲ CPU now", 0), 0u);
    EXPECT_TRUE(has(lines[8], "ALL 8 VRAM now 2%"));
    EXPECT_EQ(lines[12], "├5m─────────────3m────0%───────1m───now┼5m─────────────3m────0%───────1m───now┤");
    EXPECT_TRUE(has(lines[16], "RAM now") && has(lines[16], "| 5 min peaks") && has(lines[16], "UTIL now 25%"));
    EXPECT_EQ(lines[17], "Processes 12 | sort=gpu_memory");
    EXPECT_EQ(lines[18], " GPU     PID USER        GPU MEM   CPU%      RSS     TIME COMMAND       ▼9 more");
    EXPECT_TRUE(has(lines[19], "1000") && has(lines[21], "1002"));
    EXPECT_FALSE(has(tui.screen(), " 1003 "));
    EXPECT_EQ(lines[23], "q quit ? help g/G GPU h trend s/S sort / find r refresh k term Enter info");
    for (const auto& line : lines) EXPECT_LE(musatop::display_width(line), 79) << line;
    tui.keys({"End"});
    EXPECT_TRUE(tui.wait_for(" 1011 "));
    quit_and_check_terminal(tui);
}

TEST(TuiLayout, TallAndWide) {
    Scenario scenario;
    eight_gpus(scenario);
    TmuxSession tui(scenario, {"--interval", "0.2"}, 80, 34);
    ASSERT_TRUE(tui.wait_for("Processes 12"));
    EXPECT_TRUE(has(tui.screen(), "MTT-S5000-7"));
    EXPECT_FALSE(has(tui.screen(), "GPUs 1-"));
    EXPECT_EQ(row_of(tui, "┌ Trend"), 12);
    EXPECT_EQ(row_of(tui, "Processes 12"), 25);
    EXPECT_TRUE(has(tui.lines()[31], "1004"));
    tui.resize(120, 34);
    ASSERT_TRUE(tui.wait_for("──────────1m───────now┼"));
    const auto lines = tui.lines();
    EXPECT_EQ(lines[4],
              "  0 MTT-S5000-0  ███████▌                        25% ▊                                2%     "
              "2.0/80.0GiB  40C   120/300");
    EXPECT_EQ(lines[18],
              "├5m─────────────────────3m──────0%─────────────1m───────now┼5m─────────────────────3m──────0%"
              "─────────────1m───────now┤");
    quit_and_check_terminal(tui);
}

TEST(TuiLayout, NarrowHidesNamesAndHostPanel) {
    Scenario scenario;
    eight_gpus(scenario);
    TmuxSession tui(scenario, {"--interval", "0.2"}, 79, 24);
    ASSERT_TRUE(tui.wait_for("Processes 12"));
    auto lines = tui.lines();
    EXPECT_EQ(lines[3], "GPU UTIL          VRAM               USED/TOTAL TEMP   POWER W");
    EXPECT_EQ(lines[4], "  0 ██        25% ▏          2%     2.0/80.0GiB  40C   120/300");
    EXPECT_EQ(lines[8].rfind("┌ Trend ▲ ALL 8 VRAM now 2% ─", 0), 0u);
    EXPECT_FALSE(has(tui.screen(), "CPU now"));
    EXPECT_EQ(lines[18], " GPU     PID USER        GPU MEM COMMAND                               ▼9 more");
    EXPECT_EQ(lines[23], "q quit ? help g/G GPU h trend / find k term Enter info");
    tui.resize(60, 18);
    ASSERT_TRUE(tui.wait_for("GPUs 1-2/8"));
    lines = tui.lines();
    EXPECT_EQ(lines[4], "  0 █▌      25% ▏        2%     2.0/80.0GiB  40C   120/300");
    EXPECT_EQ(lines[6].rfind("┌ Trend ▲ ALL 8 VRAM", 0), 0u);
    EXPECT_EQ(lines[9], "├5m────────────────────3m──────0%─────────────1m───────now┤");
    EXPECT_EQ(lines[13].rfind("Processes 12", 0), 0u);
    EXPECT_TRUE(has(lines[15], "1000"));
    EXPECT_FALSE(has(tui.screen(), "1001"));
    for (const auto& line : lines) EXPECT_LE(musatop::display_width(line), 59) << line;
    quit_and_check_terminal(tui);
}

TEST(TuiLayout, TooSmallAndBack) {
    Scenario scenario;
    eight_gpus(scenario);
    TmuxSession tui(scenario, {"--interval", "0.2"}, 40, 10);
    ASSERT_TRUE(tui.wait_for("Terminal too small: resize to 60x12"));
    EXPECT_TRUE(has(tui.screen(), "Press q or Ctrl-C to quit."));
    tui.resize(80, 24);
    ASSERT_TRUE(tui.wait_for("Processes 12"));
    tui.resize(80, 17);
    ASSERT_TRUE(tui.wait_for("▼11 more")) << tui.screen();  // the frame drawn for 17 rows, not tmux's reflow
    EXPECT_FALSE(has(tui.screen(), "Trend"));
    tui.resize(80, 24);
    ASSERT_TRUE(tui.wait_for("Trend ▲ CPU"));
    quit_and_check_terminal(tui);
}

TEST(TuiKeys, PagingTrendTargetAndHiding) {
    Scenario scenario;
    eight_gpus(scenario);
    TmuxSession tui(scenario, {"--interval", "0.2"}, 80, 24);
    ASSERT_TRUE(tui.wait_for("GPUs 1-4/8"));
    tui.keys({"NPage"});
    ASSERT_TRUE(tui.wait_for("GPUs 5-8/8"));
    EXPECT_TRUE(has(tui.screen(), "MTT-S5000-4"));
    EXPECT_FALSE(has(tui.screen(), "MTT-S5000-0"));
    tui.keys({"PPage"});
    ASSERT_TRUE(tui.wait_for("GPUs 1-4/8"));
    tui.keys({"g"});
    ASSERT_TRUE(tui.wait_for("GPU 0 VRAM now 2%"));
    tui.keys({"G"});
    ASSERT_TRUE(tui.wait_for("ALL 8 VRAM now"));
    tui.keys({"G"});
    ASSERT_TRUE(tui.wait_for("GPU 7 VRAM now"));
    tui.keys({"g"});
    ASSERT_TRUE(tui.wait_for("ALL 8 VRAM now"));
    tui.keys({"Down", "g"});
    ASSERT_TRUE(tui.wait_for("GPU 0 VRAM now"));  // the selection does not steer the trend
    tui.keys({"h"});
    ASSERT_TRUE(tui.wait_for_absent("Trend ▲ CPU"));
    ASSERT_TRUE(tui.wait_for("MTT-S5000-7")) << tui.screen();  // 13 GPU rows: all eight fit
    tui.keys({"h"});
    ASSERT_TRUE(tui.wait_for("Trend ▲ CPU"));
    quit_and_check_terminal(tui);
}

TEST(TuiKeys, SearchSortUserAndCompact) {
    Scenario scenario;
    eight_gpus(scenario);
    TmuxSession tui(scenario, {"--interval", "0.2"}, 80, 24);
    ASSERT_TRUE(tui.wait_for("Processes 12"));
    tui.keys({"s"});
    ASSERT_TRUE(tui.wait_for("Processes 12 | sort=cpu"));
    tui.keys({"S"});
    ASSERT_TRUE(tui.wait_for("sort=cpu reversed"));
    tui.keys({"/"});
    tui.type("wo");
    ASSERT_TRUE(tui.wait_for("/wo  [Enter apply, Esc cancel]"));
    tui.type("rkload_9");
    tui.keys({"Enter"});
    ASSERT_TRUE(tui.wait_for("Processes 1 | sort=cpu reversed | search=workload_9"));
    EXPECT_TRUE(has(tui.screen(), " 1009 "));
    tui.keys({"/"});
    tui.type("X");
    tui.keys({"Escape"});
    ASSERT_TRUE(tui.wait_for_absent("[Enter apply"));
    ASSERT_TRUE(tui.wait_for("search=workload_9")) << tui.screen();  // Esc keeps the old search
    tui.keys({"u"});
    ASSERT_TRUE(tui.wait_for("| current user, search=workload_9"));
    tui.keys({"/", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace",
              "Enter", "u"});
    ASSERT_TRUE(tui.wait_for("Processes 12 | sort=cpu reversed\n"));
    tui.keys({"c"});
    ASSERT_TRUE(tui.wait_for(" GPU     PID USER        GPU MEM COMMAND"));
    tui.keys({"c"});
    ASSERT_TRUE(tui.wait_for("GPU MEM   CPU%"));
    quit_and_check_terminal(tui);
}

TEST(TuiKeys, NoMatchMessages) {
    Scenario scenario;
    eight_gpus(scenario);
    TmuxSession tui(scenario, {"--interval", "0.2", "--gpu", "999"}, 80, 24);
    ASSERT_TRUE(tui.wait_for("No GPUs match the selected filters."));
    EXPECT_TRUE(has(tui.screen(), "ALL 0 VRAM now N/A"));
    EXPECT_TRUE(has(tui.screen(), "No GPU processes match the selected filters."));
    quit_and_check_terminal(tui);
}

TEST(TuiDialogs, HelpAndDetails) {
    Scenario scenario;
    eight_gpus(scenario);
    TmuxSession tui(scenario, {"--interval", "0.2"}, 80, 24);
    ASSERT_TRUE(tui.wait_for("Processes 12"));
    tui.keys({"?"});
    ASSERT_TRUE(tui.wait_for("musatop 0.3.0 help"));
    EXPECT_TRUE(has(tui.screen(), "Lines 1-21/"));
    tui.keys({"NPage", "NPage", "NPage", "NPage", "NPage", "NPage", "NPage", "NPage"});  // past the end: clamped
    ASSERT_TRUE(tui.wait_for("power_limit_reason"));
    tui.keys({"q"});
    ASSERT_TRUE(tui.wait_for("Processes 12"));  // q closes the dialog, not the program
    tui.keys({"Enter"});
    ASSERT_TRUE(tui.wait_for("Process details"));
    EXPECT_TRUE(has(tui.screen(), "PID: 1000"));
    EXPECT_TRUE(has(tui.screen(), "Full command:"));
    EXPECT_TRUE(has(tui.screen(), "python workload_0.py --long-argument=xxxxxxxxxxxx"));
    tui.keys({"Escape"});
    ASSERT_TRUE(tui.wait_for("Processes 12"));
    quit_and_check_terminal(tui);
}

TEST(TuiModes, AsciiIsPureAscii) {
    Scenario scenario;
    eight_gpus(scenario);
    TmuxSession tui(scenario, {"--interval", "0.2", "--ascii"}, 80, 24);
    ASSERT_TRUE(tui.wait_for("Processes 12"));
    const std::string screen = tui.screen();
    for (unsigned char c : screen) ASSERT_LT(c, 0x80) << screen;
    EXPECT_TRUE(has(screen, "  0 MTT-S5000-0  ##          25%              2%"));
    EXPECT_TRUE(has(screen, "+5m-------------3m----0%-------1m---now+"));
    quit_and_check_terminal(tui);
}

TEST(TuiModes, NonUtf8LocaleFallsBackToAscii) {
    Scenario scenario;
    eight_gpus(scenario);
    TmuxSession tui(scenario, {"--interval", "0.2"}, 80, 24, {"TERM=screen-256color", "LC_ALL=C", "LANG=C"});
    ASSERT_TRUE(tui.wait_for("Processes 12"));
    for (unsigned char c : tui.screen()) ASSERT_LT(c, 0x80);
    quit_and_check_terminal(tui);
}

TEST(TuiModes, ColourAndNoColour) {
    Scenario scenario;
    eight_gpus(scenario);
    {
        TmuxSession colour(scenario, {"--interval", "0.2"}, 80, 24);
        ASSERT_TRUE(colour.wait_for("Processes 12"));
        EXPECT_TRUE(sets_a_colour(colour.screen_with_escapes()));
        EXPECT_TRUE(has(colour.screen_with_escapes(), "38;5;"));  // 256-colour gradient
        quit_and_check_terminal(colour);
    }
    std::filesystem::remove(scenario.dir() / "exit");
    {
        TmuxSession eight(scenario, {"--interval", "0.2"}, 80, 24, {"TERM=screen"});  // 8 colours
        ASSERT_TRUE(eight.wait_for("Processes 12"));
        EXPECT_TRUE(sets_a_colour(eight.screen_with_escapes()));
        EXPECT_FALSE(has(eight.screen_with_escapes(), "38;5;"));
        quit_and_check_terminal(eight);
    }
    std::filesystem::remove(scenario.dir() / "exit");
    {
        TmuxSession plain(scenario, {"--interval", "0.2", "--no-color"}, 80, 24);
        ASSERT_TRUE(plain.wait_for("Processes 12"));
        const std::string screen = plain.screen_with_escapes();
        EXPECT_FALSE(sets_a_colour(screen)) << screen;
        quit_and_check_terminal(plain);
    }
    std::filesystem::remove(scenario.dir() / "exit");
    {
        TmuxSession env(scenario, {"--interval", "0.2"}, 80, 24, {"TERM=screen-256color", "NO_COLOR=1"});
        ASSERT_TRUE(env.wait_for("Processes 12"));
        EXPECT_FALSE(sets_a_colour(env.screen_with_escapes()));
        quit_and_check_terminal(env);
    }
}

TEST(TuiModes, UnusableTerminalsAreAClearError) {
    // An unknown TERM, and one ncurses accepts but that cannot position the cursor.
    const std::pair<const char*, const char*> cases[] = {
        {"TERM=no-such-terminal", "cannot drive terminal type 'no-such-terminal'"},
        {"TERM=dumb", "terminal type 'dumb' cannot position the cursor"}};
    for (const auto& [term, message] : cases) {
        Scenario scenario;
        eight_gpus(scenario);
        TmuxSession tui(scenario, {}, 80, 24, {term});
        ASSERT_TRUE(tui.wait_for_exit()) << term;
        EXPECT_EQ(tui.exit_code(), 1) << term;
        EXPECT_TRUE(has(read_text(scenario.dir() / "stderr"), message)) << term;
        EXPECT_EQ(tui.stty_before(), tui.stty_after()) << term;
    }
}

TEST(TuiData, StaleAndUnknownWhenGmiStartsFailing) {
    Scenario scenario;
    eight_gpus(scenario);
    TmuxSession tui(scenario, {"--interval", "0.2"}, 80, 24);
    ASSERT_TRUE(tui.wait_for("Processes 12"));
    scenario.set("query.rc", "9");
    scenario.set("query.err", "Failed to initialize MTML: Driver Not Loaded");
    ASSERT_TRUE(tui.wait_for("GPU DATA STALE"));
    EXPECT_TRUE(has(tui.screen(), "devices: GMI exited with code 9: Failed to initialize MTML"));
    EXPECT_TRUE(has(tui.screen(), "2.0/80.0GiB"));  // the last good values stay visible
    EXPECT_TRUE(has(tui.screen(), "VRAM now 2% STALE"));
    std::filesystem::remove(scenario.dir() / "query.rc");
    scenario.set("query.out", gmi_device_json(8, "N/A", "N/A"));
    ASSERT_TRUE(tui.wait_for_absent("GPU DATA STALE"));
    ASSERT_TRUE(tui.wait_for("░░░░░░░░░░  N/A"));
    EXPECT_TRUE(has(tui.screen(), "N/A/80.0GiB"));
    EXPECT_TRUE(has(tui.screen(), "ALL 8 VRAM now N/A"));
    quit_and_check_terminal(tui);
}
