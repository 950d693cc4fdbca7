// Health and owners on the screen: the "!" marker, the status note, the GPU
// details dialog (i), and the JOB column in the full layout only where it fits.
#include <gtest/gtest.h>

#include "cgroup_sandbox.hpp"
#include "musatop/output/sanitize.hpp"
#include "scenario.hpp"
#include "tmux_session.hpp"
#include "tui_helpers.hpp"

using namespace musatop::testing;

namespace {

void health_fixture(const Scenario& scenario) {
    scenario.set_fixture("query.out", "gmi_query_health.json");
    scenario.set_fixture("summary.out", "gmi_x10000_process.txt");
    scenario.set("version.out", "mthreads-gmi version : 2.3.3\n");
}

}  // namespace

TEST(TuiHealth, MarkerNoteAndGpuDetailsAt80x24And200x50) {
    for (const auto& [width, height] : {std::pair{80, 24}, std::pair{200, 50}}) {
        Scenario scenario;
        health_fixture(scenario);
        TmuxSession tui(scenario, {"--interval", "0.2"}, width, height);
        ASSERT_TRUE(tui.wait_for("Processes 1")) << tui.screen();
        EXPECT_EQ(line_starting(tui, "  1!").substr(0, 4), "  1!") << tui.screen();  // GPU 1 has findings
        EXPECT_EQ(line_starting(tui, "  0 ").substr(0, 4), "  0 ");                  // GPU 0 has none
        EXPECT_TRUE(has(tui.screen(), "Health: GMI counts 3 attached GPUs")) << tui.screen();

        tui.keys({"i"});  // every GPU shown, host findings first
        ASSERT_TRUE(tui.wait_for("GPU details")) << tui.screen();
        EXPECT_TRUE(has(tui.screen(), "! Host: GMI counts 3 attached GPUs"));
        EXPECT_TRUE(has(tui.screen(), "Serial: MY10YL225BF06077"));
        EXPECT_TRUE(has(tui.screen(), "PCIe: gen 5 of gen 5, x16 of x16"));
        tui.keys({"Escape"});
        ASSERT_TRUE(tui.wait_for_absent("GPU details"));
        tui.keys({"g", "g", "i"});  // the trend target picks one GPU
        ASSERT_TRUE(tui.wait_for("GPU 1 MTT S5000 ! 5 finding(s)")) << tui.screen();
        EXPECT_FALSE(has(tui.screen(), "MY10YL225BF06077"));  // GPU 0 is not in this dialog
        EXPECT_TRUE(has(tui.screen(), "PCIe: gen 3 of gen 5, x4 of x16"));
        tui.keys({"End", "NPage", "NPage"});
        ASSERT_TRUE(tui.wait_for("! retired pages pending")) << tui.screen();
        tui.keys({"Escape"});
        ASSERT_TRUE(tui.wait_for_absent("GPU details"));
        for (const auto& line : tui.lines()) EXPECT_LE(musatop::display_width(line), width) << line;
        quit_and_check_terminal(tui);
    }
}

TEST(TuiHealth, JobColumnOnWideScreensAndOwnersInDetails) {
    CgroupSandbox sandbox;
    if (!sandbox.available()) GTEST_SKIP() << "real cgroups not available here: " << sandbox.why_not();
    SleepChild sleeper;
    if (!sandbox.move(sleeper.pid(), "slurm/uid_0/job_31337/step_batch")) GTEST_SKIP() << sandbox.why_not();
    Scenario scenario;
    scenario.set_fixture("query.out", "gmi_query.json");
    scenario.set("summary.out", gmi_process_table({{0, sleeper.pid(), "/usr/bin/sleep 300", 100}}));
    TmuxSession tui(scenario, {"--interval", "0.2"}, 120, 30);
    ASSERT_TRUE(tui.wait_for("31337.batch")) << tui.screen();
    EXPECT_TRUE(has(tui.screen(), " TIME JOB          COMMAND"));
    tui.keys({"Enter"});
    ASSERT_TRUE(tui.wait_for("Slurm job: 31337 step: batch")) << tui.screen();
    tui.keys({"Escape"});
    tui.resize(90, 30);  // under 100 columns the command keeps the room
    ASSERT_TRUE(tui.wait_for_absent("31337.batch")) << tui.screen();
    ASSERT_TRUE(tui.wait_for(" TIME COMMAND")) << tui.screen();  // a resize clears first: wait for the frame
    tui.keys({"/"});
    tui.type("31337");
    tui.keys({"Enter"});  // search matches the job
    ASSERT_TRUE(tui.wait_for("search=31337"));
    EXPECT_TRUE(has(tui.screen(), "sleep 300"));
    quit_and_check_terminal(tui);
}
