// The driver's figures on the screen: DRV% beside GMI's UTIL when a GPU has the
// status file, and with --process-util a GPU% column (full and compact layouts,
// sortable with s) and per-engine figures in the process details.
#include <gtest/gtest.h>

#include "driver_records.hpp"
#include "driver_tree.hpp"
#include "musatop/output/sanitize.hpp"
#include "scenario.hpp"
#include "tmux_session.hpp"
#include "tui_helpers.hpp"

using namespace musatop::testing;

namespace {

FakeDriverTree tree_with_util(const Scenario& scenario) {
    FakeDriverTree tree(scenario.dir() / "driver-root");
    tree.add_gpu("gpu00", 0, "0000:03:00.0");
    tree.write("gpu00", "status", kFieldStatusUnderLoad);
    tree.write("gpu00", "proc_util", kProcUtilHeader + proc_util_row(12345, 12345, 45, 45, "python3"));
    return tree;
}

}  // namespace

TEST(TuiDriver, DriverUtilisationBesideGmisAt80And160Columns) {
    for (const auto& [width, height] : {std::pair{80, 24}, std::pair{160, 40}}) {
        Scenario scenario;
        scenario.use_reference_fixtures();
        const auto tree = tree_with_util(scenario);
        TmuxSession tui(scenario, {"--interval", "0.2"}, width, height, {"TERM=screen-256color", tree.env()});
        ASSERT_TRUE(tui.wait_for("DRV%")) << tui.screen();
        const std::string gpu0 = line_starting(tui, "  0 ");
        EXPECT_TRUE(gpu0.ends_with(" 42%")) << tui.screen();                        // the driver's figure, last
        EXPECT_TRUE(line_starting(tui, "  3 ").ends_with(" N/A")) << tui.screen();  // no gpuNN for GPU 3
        EXPECT_FALSE(has(tui.screen(), "GPU%"));  // per-process figures were not asked for
        for (const auto& line : tui.lines()) EXPECT_LE(musatop::display_width(line), width) << line;
        tui.keys({"i"});
        ASSERT_TRUE(tui.wait_for("Driver utilisation: 42% (GEOM 0%, 3D 0%, COMP 0%, 2D 42%)")) << tui.screen();
        tui.keys({"Escape"});
        ASSERT_TRUE(tui.wait_for_absent("GPU details"));
        quit_and_check_terminal(tui);
    }
}

TEST(TuiDriver, GpuPercentColumnSortsInBothLayoutsAndDetailsShowTheEngines) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    const auto tree = tree_with_util(scenario);
    TmuxSession tui(scenario, {"--interval", "0.2", "--process-util"}, 120, 30, {"TERM=screen-256color", tree.env()});
    ASSERT_TRUE(tui.wait_for("GPU MEM  GPU%   CPU%")) << tui.screen();
    tui.keys({"s"});  // the sort after GPU memory is GPU%
    ASSERT_TRUE(tui.wait_for("sort=gpu_util")) << tui.screen();
    EXPECT_NE(line_starting(tui, "   0   12345").find("   45 "), std::string::npos) << tui.screen();  // busiest first
    tui.keys({"c"});  // compact keeps GPU%
    ASSERT_TRUE(tui.wait_for_absent("CPU%")) << tui.screen();
    ASSERT_TRUE(tui.wait_for("GPU MEM  GPU% COMMAND")) << tui.screen();
    tui.keys({"Enter"});
    ASSERT_TRUE(tui.wait_for("GPU utilisation (driver): 45%")) << tui.screen();
    EXPECT_TRUE(has(tui.screen(), "engines: 2D 0%, TA 0%, 3D 0%, CMP 45%, TRANSFER 0%")) << tui.screen();
    tui.keys({"Escape"});
    quit_and_check_terminal(tui);
}
