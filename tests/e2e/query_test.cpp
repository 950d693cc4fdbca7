// nvidia-smi's query vocabulary (docs/query.md): the CSV agrees with --json on the
// fixtures, field by field; units, noheader, nounits, [N/A]; usage errors.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include <nlohmann/json.hpp>

#include "scenario.hpp"

using namespace musatop::testing;
using json = nlohmann::json;

namespace {

std::vector<std::vector<std::string>> csv(const std::string& text) {
    std::vector<std::vector<std::string>> rows;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        std::vector<std::string> cells;
        for (std::size_t start = 0;;) {
            const auto comma = line.find(", ", start);
            cells.push_back(line.substr(start, comma - start));
            if (comma == std::string::npos) break;
            start = comma + 2;
        }
        rows.push_back(cells);
    }
    return rows;
}

// What nvidia-smi would print for a JSON value: [N/A] for null, whole numbers.
std::string expected(const json& value, double scale = 1) {
    if (value.is_null()) return "[N/A]";
    if (value.is_string()) return value.get<std::string>();
    return std::to_string(std::llround(value.get<double>() / scale));
}

}  // namespace

TEST(Query, GpuFieldsAgreeWithTheJsonDocument) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    const auto doc = json::parse(scenario.run({"--json"}).out);
    const auto run =
        scenario.run({"--query-gpu=index,name,uuid,pci.bus_id,utilization.gpu,memory.total,memory.used,"
                      "temperature.gpu,power.draw,clocks.gr,fan.speed",
                      "--format=csv,nounits"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto rows = csv(run.out);
    ASSERT_EQ(rows.size(), 3u) << run.out;
    EXPECT_EQ(rows[0][4], "utilization.gpu [%]");  // headers keep their units under nounits
    EXPECT_EQ(rows[0][6], "memory.used [MiB]");
    for (std::size_t i = 0; i < 2; ++i) {
        const auto& d = doc["devices"][i];
        const auto& row = rows[i + 1];
        EXPECT_EQ(row[0], expected(d["index"]));
        EXPECT_EQ(row[1], expected(d["name"]));
        EXPECT_EQ(row[2], expected(d["uuid"]));
        EXPECT_EQ(row[3], expected(d["bus_id"]));
        EXPECT_EQ(row[4], expected(d["gpu_utilization_percent"]));
        EXPECT_EQ(row[5], expected(d["memory_total_bytes"], 1 << 20));
        EXPECT_EQ(row[6], expected(d["memory_used_bytes"], 1 << 20));
        EXPECT_EQ(row[7], expected(d["temperature_c"]));
        if (d["power_draw_w"].is_null()) EXPECT_EQ(row[8], "[N/A]");
        else EXPECT_NEAR(std::stod(row[8]), d["power_draw_w"].get<double>(), 0.005);
        EXPECT_EQ(row[9], expected(d["graphics_clock_mhz"]));
        EXPECT_EQ(row[10], expected(d["fan_speed_percent"]));
    }
}

TEST(Query, UnitsHeaderAndComputeApps) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    const auto doc = json::parse(scenario.run({"--json"}).out);
    auto run = scenario.run({"--query-gpu=index,memory.used,power.draw", "--format=csv"});
    EXPECT_EQ(csv(run.out)[1][1], expected(doc["devices"][0]["memory_used_bytes"], 1 << 20) + " MiB");
    EXPECT_TRUE(csv(run.out)[1][2].ends_with(" W")) << run.out;
    EXPECT_EQ(csv(run.out)[2][1], "[N/A]");  // no unit after an unknown
    run = scenario.run({"--query-gpu=index", "--format=csv,noheader", "--gpu", "3"});
    EXPECT_EQ(run.out, "3\n");
    run = scenario.run({"--query-compute-apps=pid,process_name,used_memory,gpu_bus_id", "--format=csv"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto rows = csv(run.out);
    EXPECT_EQ(rows[0], (std::vector<std::string>{"pid", "process_name", "used_gpu_memory [MiB]", "gpu_bus_id"}));
    ASSERT_EQ(rows.size(), doc["processes"].size() + 1);
    for (std::size_t i = 0; i < doc["processes"].size(); ++i) {
        const auto& p = doc["processes"][i];
        EXPECT_EQ(rows[i + 1][0], std::to_string(p["pid"].get<int>()));
        EXPECT_EQ(rows[i + 1][2],
                  p["gpu_memory_bytes"].is_null() ? "[N/A]" : expected(p["gpu_memory_bytes"], 1 << 20) + " MiB");
    }
}

TEST(Query, BadFieldsAndFormatsAreUsageErrorsBeforeGmiRuns) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    auto run = scenario.run({"--query-gpu=index,clocks.sm", "--format=csv"});
    EXPECT_EQ(run.exit_code, 2);
    EXPECT_NE(run.err.find("field \"clocks.sm\" is not a valid field to query"), std::string::npos) << run.err;
    EXPECT_EQ(scenario.run({"--query-gpu=index"}).exit_code, 2);
    EXPECT_EQ(scenario.run({"--query-gpu=index", "--format=xml"}).exit_code, 2);
    EXPECT_EQ(scenario.run({"--query-gpu=index", "--format=csv", "--json"}).exit_code, 2);
    EXPECT_EQ(scenario.calls("query"), 0);
    scenario.set("query.rc", "3");  // a failing GMI: the header, no rows, status 1, the message on stderr
    scenario.set("summary.rc", "3");
    run = scenario.run({"--query-gpu=index", "--format=csv"});
    EXPECT_EQ(run.exit_code, 1);
    EXPECT_EQ(run.out, "index\n");
    EXPECT_NE(run.err.find("musatop: "), std::string::npos);
}

TEST(Query, LoopRepeatsTheRowsUnderOneHeader) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    const auto run = scenario.run_script(
        "set -o pipefail\n\"$1\" --query-gpu=index --format=csv -l 0.05 | head -n 5\necho \"status=$?\"\n");
    EXPECT_EQ(run.out, "index\n0\n3\n0\n3\nstatus=0\n") << run.err;
}
