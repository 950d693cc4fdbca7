// The driver's files through the agent: /metrics families (docs/serve.md), a count
// of XID events that only rises while the ring is rewritten and cleared, and the
// findings in the cluster view of that agent.
#include <gtest/gtest.h>

#include <cstdlib>
#include <ctime>
#include <sstream>

#include <nlohmann/json.hpp>

#include "driver_records.hpp"
#include "driver_tree.hpp"
#include "scenario.hpp"
#include "serve_process.hpp"

using namespace musatop::testing;
using json = nlohmann::json;

namespace {

// The agent reads the environment of the test process.
struct DriverRootVariable {
    explicit DriverRootVariable(const std::string& root) { ::setenv("MUSATOP_DRIVER_ROOT", root.c_str(), 1); }
    ~DriverRootVariable() { ::unsetenv("MUSATOP_DRIVER_ROOT"); }
};

// The value of the first series whose line starts with `series`, or -1.
double series_value(const std::string& metrics, const std::string& series) {
    const auto at = metrics.find("\n" + series + " ");
    if (at == std::string::npos) return -1;
    return std::stod(metrics.substr(at + series.size() + 2));
}

constexpr std::chrono::milliseconds kLimit{10000}, kPoll{50};

std::string metrics_of(const ServeProcess& agent) { return http_get(agent.port(), "/metrics").body; }

std::string ring(const std::vector<Gen2Record>& records) {
    std::string bytes;
    for (const auto& r : records) bytes += gen2_record(r);
    return bytes + std::string(256 * (50 - records.size()), '\0');
}

}  // namespace

TEST(DriverMetrics, StatusCountersEnginesEventsAndProcessUtilisation) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    const std::string root = (scenario.dir() / "driver-root").string();
    FakeDriverTree tree(root);
    tree.add_gpu("gpu00", 0, "0000:03:00.0");
    tree.add_gpu("gpu01", 1, "0000:07:00.0");
    tree.write("gpu00", "status", kFieldStatusUnderLoad);
    tree.write("gpu01", "status", "Driver Status:   OK\nFirmware Status: NOT RESPONDING (Poll failing)\n");
    tree.write("gpu00", "proc_util", kProcUtilHeader + proc_util_row(12345, 12345, 45, 45, "python3"));
    Gen2Record first;
    first.time = static_cast<std::uint64_t>(std::time(nullptr) - 60);
    first.sbdf = 0x30000;
    tree.write("gpu00", "event_report", ring({first}));
    DriverRootVariable variable(root);
    ServeProcess agent(scenario, {"--interval", "0.2", "--process-util", "--process-metrics"});
    ASSERT_TRUE(agent.listening()) << agent.log();
    std::string m;
    ASSERT_TRUE(
        wait_for([&] { return (m = metrics_of(agent)).find("musatop_gpu_xid_events_total") != std::string::npos; },
                 kLimit, kPoll));
    const std::string gpu0 = R"(gpu="0",uuid="fixture-gpu-0")", gpu3 = R"(gpu="3",uuid="fixture-gpu-3")";
    EXPECT_EQ(series_value(m, "musatop_gpu_driver_status{" + gpu0 + R"(,status="OK"})"), 1) << m;
    EXPECT_EQ(
        series_value(m, "musatop_gpu_firmware_status{" + gpu3 + R"(,status="NOT RESPONDING",reason="Poll failing"})"),
        0);
    EXPECT_EQ(series_value(m, "musatop_gpu_driver_status_events_total{" + gpu0 + R"(,counter="Server Errors"})"), 3);
    EXPECT_EQ(series_value(m, "musatop_gpu_driver_utilization_ratio{" + gpu0 + "}"), 0.42);
    EXPECT_EQ(series_value(m, "musatop_gpu_driver_engine_utilization_ratio{" + gpu0 + R"(,engine="2D"})"), 0.42);
    EXPECT_EQ(series_value(m, "musatop_gpu_utilization_ratio{" + gpu0 + "}"), 0.42);  // GMI's, its own series
    const std::string xid = gpu0 + R"(,xid="0x05000002")";
    EXPECT_EQ(series_value(m, "musatop_gpu_xid_events_total{" + xid + R"(,severity="fatal"})"), 1);
    EXPECT_EQ(series_value(m, "musatop_gpu_xid_last_timestamp_seconds{" + xid + "}"), static_cast<double>(first.time));
    EXPECT_EQ(series_value(m, "musatop_process_gpu_utilization_ratio{" + gpu0 + R"(,pid="12345",user=""})"), 0.45);
    EXPECT_EQ(m.find("musatop_gpu_driver_utilization_ratio{" + gpu3), std::string::npos);  // unknown: no series

    // A second event joins the first: the count rises by one. The ring is then
    // cleared (a reset): the count stays, the newest time too.
    Gen2Record second = first;
    second.time += 30;
    tree.write("gpu00", "event_report", ring({first, second}));
    const std::string total = "musatop_gpu_xid_events_total{" + xid + R"(,severity="fatal"})";
    ASSERT_TRUE(wait_for([&] { return series_value(metrics_of(agent), total) == 2; }, kLimit, kPoll))
        << metrics_of(agent);
    tree.write("gpu00", "event_report", std::string(256 * 50, '\0'));
    ASSERT_TRUE(wait_for(
        [&] {
            const auto doc = json::parse(http_get(agent.port(), "/api/v1/snapshot").body, nullptr, false);
            return doc.is_object() && doc["devices"][0]["driver_events"].empty();
        },
        kLimit, kPoll));
    m = metrics_of(agent);
    EXPECT_EQ(series_value(m, total), 2);
    EXPECT_EQ(series_value(m, "musatop_gpu_xid_last_timestamp_seconds{" + xid + "}"), static_cast<double>(second.time));
}

// The cluster view of that agent carries the driver's findings and its figures.
TEST(DriverMetrics, TheClusterViewShowsTheDriversFindings) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    const std::string root = (scenario.dir() / "driver-root").string();
    FakeDriverTree tree(root);
    tree.add_gpu("gpu00", 0, "0000:03:00.0");
    tree.write("gpu00", "status", "Driver Status:   OK\nFirmware Status: NOT RESPONDING (Poll failing)\n");
    Gen2Record event;
    event.time = static_cast<std::uint64_t>(std::time(nullptr) - 60);
    event.sbdf = 0x30000;
    tree.write("gpu00", "event_report", ring({event}));
    DriverRootVariable variable(root);
    ServeProcess agent(scenario, {"--interval", "0.2"});
    ASSERT_TRUE(agent.listening()) << agent.log();
    ASSERT_TRUE(wait_for([&] { return http_get(agent.port(), "/healthz").status == 200; }));
    Scenario client;
    const std::string node = "127.0.0.1:" + std::to_string(agent.port());
    const auto text = client.run({"--nodes", node, "--once", "--no-color"});
    EXPECT_NE(text.out.find("  ! [0] firmware NOT RESPONDING (Poll failing)"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("  ! [0] driver event 0x05000002 MTBIOS GPU_BIOS_TRAP, fatal, "), std::string::npos)
        << text.out;
    const auto doc = json::parse(client.run({"--nodes", node, "--json"}).out);
    const auto& device = doc["nodes"][0]["snapshot"]["devices"][0];
    EXPECT_EQ(device["driver"]["firmware_status"], "NOT RESPONDING");
    EXPECT_EQ(device["driver_events"][0]["xid"], "0x05000002");
}

// --nodes with --json --count: a cluster document per line, per round.
TEST(ClusterStream, JsonLinesOfTheClusterDocument) {
    Scenario scenario;
    ServeProcess agent(scenario, {"--interval", "0.2", "--demo"});
    ASSERT_TRUE(agent.listening()) << agent.log();
    ASSERT_TRUE(wait_for([&] { return http_get(agent.port(), "/healthz").status == 200; }, kLimit, kPoll));
    Scenario client;
    const auto run = client.run(
        {"--nodes", "127.0.0.1:" + std::to_string(agent.port()), "--json", "--interval", "0.1", "--count", "2"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    std::istringstream lines(run.out);
    int count = 0;
    for (std::string line; std::getline(lines, line); ++count) {
        const auto doc = json::parse(line);
        EXPECT_EQ(doc["kind"], "cluster");
        EXPECT_EQ(doc["nodes"][0]["state"], "ok");
    }
    EXPECT_EQ(count, 2) << run.out;
}

// gpustat's flags on the cluster: the per-node layout, clustat's -user and --no-latency.
TEST(ClusterGpustat, NodesFilteredByUserWithoutLatency) {
    Scenario scenario;
    ServeProcess agent(scenario, {"--interval", "0.2", "--demo"});
    ASSERT_TRUE(agent.listening()) << agent.log();
    ASSERT_TRUE(wait_for([&] { return http_get(agent.port(), "/healthz").status == 200; }, kLimit, kPoll));
    const auto doc = json::parse(http_get(agent.port(), "/api/v1/snapshot").body);
    const std::string user = doc["processes"][0]["username"];
    Scenario client;
    const std::string node = "127.0.0.1:" + std::to_string(agent.port());
    const auto all = client.run({"gpustat", "--nodes", node});
    ASSERT_EQ(all.exit_code, 0) << all.err;
    const bool latency = all.out.find(" ms") != std::string::npos || all.out.find("\xc2\xb5s") != std::string::npos;
    EXPECT_TRUE(latency) << all.out;
    const auto mine = client.run({"gpustat", "--nodes", node, "-user", user, "--no-latency", "-p"});
    ASSERT_EQ(mine.exit_code, 0) << mine.err;
    EXPECT_EQ(mine.out.find(" ms  "), std::string::npos) << mine.out;
    EXPECT_EQ(mine.out.find("\xc2\xb5s"), std::string::npos) << mine.out;
    for (const auto& p : doc["processes"]) {
        const std::string shown = p["username"].get<std::string>() + "/" + std::to_string(p["pid"].get<int>()) + "(";
        EXPECT_EQ(mine.out.find(shown) != std::string::npos, p["username"] == user) << shown << "\n" << mine.out;
    }
}
