// The mouse through tmux: the program asks for SGR 1006 reporting and gives it
// back on every exit; the reports a terminal sends for clicks and the wheel act
// on the screen; --no-mouse leaves the mouse to the terminal.
#include <gtest/gtest.h>

#include "scenario.hpp"
#include "tmux_session.hpp"
#include "tui_helpers.hpp"

using namespace musatop::testing;

namespace {

void four_gpus(const Scenario& scenario) {
    scenario.set("query.out", gmi_device_json(4));
    std::vector<FakeProcessRow> rows;
    for (int i = 0; i < 8; ++i) rows.push_back({i % 4, 2000 + i, "python job_" + std::to_string(i) + ".py", 80 - i});
    scenario.set("summary.out", gmi_process_table(rows));
    scenario.set("version.out", "mthreads-gmi version : 2.3.3\n");
}

bool mouse_reporting(const TmuxSession& tui) {
    return tui.pane_format("#{mouse_standard_flag}#{mouse_sgr_flag}") == "11";
}

}  // namespace

TEST(TuiMouse, ClicksDoubleClicksWheelAndHeaders) {
    Scenario scenario;
    four_gpus(scenario);
    TmuxSession tui(scenario, {"--interval", "0.2"}, 100, 34);
    ASSERT_TRUE(tui.wait_for("Processes 8")) << tui.screen();
    EXPECT_TRUE(mouse_reporting(tui));
    const int header = row_of(tui, " GPU     PID USER");
    ASSERT_GT(header, 0) << tui.screen();

    tui.mouse(header, 8);  // the PID cell
    ASSERT_TRUE(tui.wait_for("sort=pid")) << tui.screen();
    tui.mouse(header, 8);
    ASSERT_TRUE(tui.wait_for("sort=pid reversed")) << tui.screen();
    tui.mouse(header, 8);
    ASSERT_TRUE(tui.wait_for_absent("reversed")) << tui.screen();

    tui.mouse(header + 3, 20, 0, 2);  // a double-click on the 3rd row: its details
    ASSERT_TRUE(tui.wait_for("Process details")) << tui.screen();
    EXPECT_TRUE(has(tui.screen(), "PID: 2002"));
    tui.keys({"Escape"});
    ASSERT_TRUE(tui.wait_for_absent("Process details"));

    tui.mouse(header + 1, 20, 65);  // the wheel: three rows down from the 3rd
    tui.keys({"Enter"});
    ASSERT_TRUE(tui.wait_for("PID: 2005")) << tui.screen();
    tui.keys({"Escape"});
    ASSERT_TRUE(tui.wait_for_absent("Process details"));

    const int gpu2 = row_of(tui, "  2 MTT-S5000-2");
    ASSERT_GT(gpu2, 0) << tui.screen();
    tui.mouse(gpu2, 5);  // a GPU row shows its trend
    ASSERT_TRUE(tui.wait_for("GPU 2 VRAM")) << tui.screen();
    quit_and_check_terminal(tui);
    EXPECT_EQ(tui.pane_format("#{mouse_standard_flag}#{mouse_sgr_flag}"), "00");  // handed back
}

TEST(TuiMouse, NoMouseLeavesTheMouseToTheTerminal) {
    Scenario scenario;
    four_gpus(scenario);
    TmuxSession tui(scenario, {"--interval", "0.2", "--no-mouse"}, 100, 34);
    ASSERT_TRUE(tui.wait_for("Processes 8")) << tui.screen();
    EXPECT_EQ(tui.pane_format("#{mouse_standard_flag}#{mouse_sgr_flag}"), "00");
    const int header = row_of(tui, " GPU     PID USER");
    tui.mouse(header, 8);  // arrives as plain keys: no sort change
    tui.keys({"Escape", "C-l"});
    ASSERT_TRUE(tui.wait_for("sort=gpu_memory")) << tui.screen();
    quit_and_check_terminal(tui);
}

TEST(TuiMouse, SignalsAndCrashesHandTheMouseBack) {
    for (const char* how : {"TERM", "SEGV"}) {
        Scenario scenario;
        four_gpus(scenario);
        TmuxSession tui(scenario, {"--interval", "0.2"}, 100, 34);
        ASSERT_TRUE(tui.wait_for("Processes 8")) << tui.screen();
        ASSERT_TRUE(mouse_reporting(tui));
        tui.signal_program(how);
        ASSERT_TRUE(tui.wait_for_exit()) << how;
        EXPECT_EQ(tui.exit_code(), std::string(how) == "TERM" ? 143 : 139);
        EXPECT_EQ(tui.pane_format("#{mouse_standard_flag}#{mouse_sgr_flag}"), "00") << how;
        EXPECT_EQ(tui.stty_before(), tui.stty_after()) << how;
    }
}
