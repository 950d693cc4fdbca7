// What another user's GPU job can put in front of musatop: a command line of a
// megabyte costs a snapshot 4 KiB, cut where it says so.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "fake_gmi_data.hpp"
#include "scenario.hpp"
#include "test_support.hpp"

using namespace musatop::testing;

TEST(HostileProcess, AHugeCommandLineIsCutAndBoundsTheFrame) {
    // sleep sums its arguments: 100,000 leading zeros are still 300 seconds.
    SleepChild huge(std::string(100000, '0') + "300");
    Scenario scenario;
    scenario.set("query.out", gmi_device_json(4));
    std::vector<FakeProcessRow> rows;
    for (int gpu = 0; gpu < 4; ++gpu) rows.push_back({gpu, huge.pid(), "sleep", 111});
    scenario.set("summary.out", gmi_process_table(rows));
    const auto run = scenario.run({"--json"});
    const auto doc = nlohmann::json::parse(run.out);
    ASSERT_EQ(doc["processes"].size(), 4u) << run.out << run.err;
    for (const auto& p : doc["processes"]) {
        const std::string command = p["command"];
        EXPECT_LE(command.size(), 4096u);
        EXPECT_EQ(command.rfind("sleep 0000", 0), 0u);
        EXPECT_EQ(command.substr(command.size() - 3), "\u2026");
    }
    EXPECT_LT(run.out.size(), 40000u);  // 4 rows, not 400 KB
    const auto text = scenario.run({"--once"});
    EXPECT_LT(text.out.size(), 40000u);
}
