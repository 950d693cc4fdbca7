// Small helpers shared by the tmux-driven screen tests.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fake_gmi_data.hpp"
#include "scenario.hpp"
#include "tmux_session.hpp"

namespace musatop::testing {

inline bool has(const std::string& text, const std::string& needle) { return text.find(needle) != std::string::npos; }

// The first screen row (from 0) holding `needle`, or -1.
inline int row_of(const TmuxSession& tui, const std::string& needle) {
    const auto lines = tui.lines();
    for (std::size_t i = 0; i < lines.size(); ++i)
        if (has(lines[i], needle)) return static_cast<int>(i);
    return -1;
}

// `q`, then the program must exit 0 with the terminal settings it found.
// The first line of the screen that starts with `prefix`; "" when none does.
inline std::string line_starting(const TmuxSession& tui, const std::string& prefix) {
    for (const auto& line : tui.lines())
        if (line.rfind(prefix, 0) == 0) return line;
    return {};
}

inline void quit_and_check_terminal(const TmuxSession& tui) {
    tui.keys({"q"});
    ASSERT_TRUE(tui.wait_for_exit());
    EXPECT_EQ(tui.exit_code(), 0);
    EXPECT_EQ(tui.stty_before(), tui.stty_after());
}

// Eight GPUs (25 %, 2 GiB of 80 GiB, 40 C, 120/300 W) and twelve processes.
inline void eight_gpus(const Scenario& scenario, std::vector<FakeProcessRow> rows = {}) {
    scenario.set("query.out", gmi_device_json(8));
    if (rows.empty())
        for (int i = 0; i < 12; ++i)
            rows.push_back(
                {i % 8, 1000 + i, "python workload_" + std::to_string(i) + ".py --long-argument=xxxxxxxxxxxx", 12 - i});
    scenario.set("summary.out", gmi_process_table(rows));
    scenario.set("version.out", "mthreads-gmi version : 2.3.3\n");
}

}  // namespace musatop::testing
