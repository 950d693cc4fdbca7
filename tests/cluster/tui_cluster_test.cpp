// The cluster screen in tmux against real agents: blocks and totals at 80x24 and
// 200x50, the node filter (n), the drill-down into a node and back, and k refused.
#include <gtest/gtest.h>

#include "musatop/output/sanitize.hpp"
#include "scenario.hpp"
#include "serve_process.hpp"
#include "tmux_session.hpp"
#include "tui_helpers.hpp"

using namespace musatop::testing;

namespace {

void gmi_with(const Scenario& scenario, int gpus, const std::vector<FakeProcessRow>& rows) {
    scenario.set("query.out", gmi_device_json(gpus));
    scenario.set("summary.out", gmi_process_table(rows));
    scenario.set("version.out", "mthreads-gmi version : 2.3.3\n");
}

}  // namespace

TEST(TuiCluster, BlocksFilterDrillDownAndRefusals) {
    Scenario two, four;
    gmi_with(two, 2, {{0, 4100001, "python two.py", 100}});
    gmi_with(four, 4, {{3, 4200001, "python four.py", 300}});
    ServeProcess a(two, {"--interval", "0.2"});
    ServeProcess b(four, {"--interval", "0.2"});
    ASSERT_TRUE(a.listening() && b.listening());
    const int down = free_port();
    const std::string nodes = "127.0.0.1:" + std::to_string(a.port()) + ",127.0.0.1:" + std::to_string(b.port()) +
                              ",127.0.0.1:" + std::to_string(down);
    for (const auto& [width, height] : {std::pair{80, 24}, std::pair{200, 50}}) {
        Scenario client;
        TmuxSession tui(client, {"--nodes", nodes, "--interval", "0.2"}, width, height);
        ASSERT_TRUE(tui.wait_for("nodes 3: 2 ok, 1 down | GPUs 6:")) << tui.screen();
        EXPECT_TRUE(has(tui.screen(), "python four.py"));
        EXPECT_TRUE(has(tui.screen(), "[3] MTT-S5000-3"));
        for (const auto& line : tui.lines()) EXPECT_LE(musatop::display_width(line), width) << line;
        if (height >= 50) {
            EXPECT_TRUE(has(tui.screen(), "unreachable  connection refused"));
        }

        tui.keys({"k"});
        ASSERT_TRUE(tui.wait_for("SIGTERM is refused in the cluster view")) << tui.screen();

        tui.keys({"n"});  // only the four-GPU agent
        tui.type(std::to_string(b.port()));
        tui.keys({"Enter"});
        ASSERT_TRUE(tui.wait_for("nodes 1: 1 ok | GPUs 4:")) << tui.screen();
        EXPECT_FALSE(has(tui.screen(), "python two.py"));

        tui.keys({"Enter"});  // its own screen, read-only
        // The title says NODE; at 80 columns the rest of the badge fits only when
        // the host's CPU and RAM figures are short, which they are not always.
        const bool wide = width >= 200;  // clang 14 cannot capture a structured binding
        ASSERT_TRUE(wait_for([&] {
            const auto lines = tui.lines();
            return !lines.empty() && has(lines.front(), " NODE ") &&
                   (!wide || has(lines.front(), "(Esc: back to the cluster)"));
        })) << tui.screen();
        ASSERT_TRUE(tui.wait_for("Processes 1")) << tui.screen();
        tui.keys({"k"});
        ASSERT_TRUE(tui.wait_for("Remote node: read-only")) << tui.screen();
        tui.keys({"Escape"});
        ASSERT_TRUE(tui.wait_for("nodes 1: 1 ok")) << tui.screen();
        quit_and_check_terminal(tui);
    }
}
