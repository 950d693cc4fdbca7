// The screen remembers sort, direction, compact and trends across runs (in the
// scenario's own HOME), never over an explicit flag; config values set the first
// state of c and h.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "scenario.hpp"
#include "tmux_session.hpp"
#include "tui_helpers.hpp"

using namespace musatop::testing;

namespace {

void two_processes(const Scenario& scenario) {
    scenario.set("query.out", gmi_device_json(2));
    scenario.set("summary.out", gmi_process_table({{0, 1000, "python a.py", 10}, {1, 1001, "python b.py", 20}}));
    scenario.set("version.out", "mthreads-gmi version : 2.3.3\n");
}

}  // namespace

TEST(TuiSettings, ChoicesSurviveARestartButNotAnExplicitFlag) {
    Scenario scenario;
    two_processes(scenario);
    {
        TmuxSession tui(scenario, {"--interval", "0.2"}, 100, 30);
        ASSERT_TRUE(tui.wait_for("sort=gpu_memory")) << tui.screen();
        tui.keys({"s", "S", "c", "h"});  // cpu, reversed, compact, no trends
        ASSERT_TRUE(tui.wait_for("sort=cpu reversed")) << tui.screen();
        quit_and_check_terminal(tui);
    }
    const auto state = scenario.dir() / "home/.local/state/musatop/state.toml";
    ASSERT_TRUE(std::filesystem::exists(state));
    EXPECT_NE(read_text(state).find("sort = \"cpu\""), std::string::npos);
    {
        TmuxSession tui(scenario, {"--interval", "0.2"}, 100, 30);
        ASSERT_TRUE(tui.wait_for("sort=cpu reversed")) << tui.screen();
        EXPECT_TRUE(has(tui.screen(), " GPU     PID USER        GPU MEM COMMAND"));  // compact
        EXPECT_FALSE(has(tui.screen(), "Trend"));                                    // trends hidden
        quit_and_check_terminal(tui);
    }
    {
        TmuxSession tui(scenario, {"--interval", "0.2", "--sort", "pid"}, 100, 30);
        // The flag sets the field; the remembered direction, which no flag set, stays.
        ASSERT_TRUE(tui.wait_for("sort=pid reversed")) << tui.screen();
        quit_and_check_terminal(tui);
    }
    EXPECT_NE(read_text(state).find("sort = \"cpu\""), std::string::npos);  // nothing changed on screen: kept
}

TEST(TuiSettings, ConfigSetsTheFirstStateAndABadStateFileIsIgnored) {
    Scenario scenario;
    two_processes(scenario);
    const auto config = scenario.dir() / "home/.config/musatop/config.toml";
    std::filesystem::create_directories(config.parent_path());
    std::ofstream(config) << "compact = true\nsort = \"pid\"\n";
    const auto state = scenario.dir() / "home/.local/state/musatop/state.toml";
    std::filesystem::create_directories(state.parent_path());
    std::ofstream(state) << "sort = [\n";
    TmuxSession tui(scenario, {"--interval", "0.2"}, 100, 30);
    ASSERT_TRUE(tui.wait_for("sort=pid")) << tui.screen();
    EXPECT_TRUE(has(tui.screen(), " GPU     PID USER        GPU MEM COMMAND"));
    quit_and_check_terminal(tui);
    EXPECT_NE(read_text(scenario.dir() / "stderr").find("ignoring the remembered screen settings"), std::string::npos);
}

// A key the user wrote in the config file wins over a key press remembered from an
// earlier run; keys the file leaves unset are still remembered.
TEST(TuiSettings, TheConfigFileWinsOverTheRememberedState) {
    Scenario scenario;
    two_processes(scenario);
    const auto config = scenario.dir() / "home/.config/musatop/config.toml";
    std::filesystem::create_directories(config.parent_path());
    std::ofstream(config) << "sort = \"pid\"\n";
    {
        TmuxSession tui(scenario, {"--interval", "0.2"}, 100, 30);
        ASSERT_TRUE(tui.wait_for("sort=pid")) << tui.screen();
        tui.keys({"s", "S"});  // user, reversed
        ASSERT_TRUE(tui.wait_for("sort=user reversed")) << tui.screen();
        quit_and_check_terminal(tui);
    }
    const auto state = scenario.dir() / "home/.local/state/musatop/state.toml";
    ASSERT_NE(read_text(state).find("sort = \"user\""), std::string::npos);  // remembered...
    TmuxSession tui(scenario, {"--interval", "0.2"}, 100, 30);
    ASSERT_TRUE(tui.wait_for("sort=pid reversed")) << tui.screen();  // ...but the file's sort wins
    quit_and_check_terminal(tui);
}
