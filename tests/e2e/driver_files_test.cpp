// The MUSA driver's own files, read from a fake /proc/driver/musa under
// MUSATOP_DRIVER_ROOT with the fake GMI beside it (reference fixtures: GPU 0 at
// 00000000:03:00.0, GPU 3 at 00000000:07:00.0; PIDs 12345 on both, 23456 on 3).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <ctime>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "driver_records.hpp"
#include "driver_tree.hpp"
#include "scenario.hpp"

using namespace musatop::testing;
using json = nlohmann::json;

namespace {

// gpu00 → GPU 0 under load with a fatal event a minute old and a proc_util row for
// 12345; gpu01 → GPU 3 with a firmware that does not answer and a row that names
// 23456 only by its VPid (a host PID the reader's namespace does not see).
FakeDriverTree loaded_tree(const Scenario& scenario) {
    FakeDriverTree tree(scenario.dir() / "driver-root");
    tree.add_gpu("gpu00", 0, "0000:03:00.0");
    tree.add_gpu("gpu01", 1, "0000:07:00.0");
    tree.write("gpu00", "status", kFieldStatusUnderLoad);
    tree.write("gpu01", "status", "Driver Status:   OK\nFirmware Status: NOT RESPONDING (Poll failing)\n");
    Gen2Record record;
    record.time = static_cast<std::uint64_t>(std::time(nullptr) - 60);
    record.sbdf = 0x30000;
    record.pid = 12345;
    record.text = "trap \x1b[2J\n";
    tree.write("gpu00", "event_report", gen2_record(record) + std::string(256 * 49, '\0'));
    tree.write("gpu00", "proc_util", kProcUtilHeader + proc_util_row(12345, 12345, 45, 45, "python3 x"));
    tree.write("gpu01", "proc_util", kProcUtilHeader + proc_util_row(99999, 23456, 7, 7, "(null)"));
    return tree;
}

const json* process(const json& doc, int gpu, int pid) {
    for (const auto& p : doc["processes"])
        if (p["device_index"] == gpu && p["pid"] == pid) return &p;
    return nullptr;
}

}  // namespace

// A firmware that does not answer is a finding of the GPU the directory is tied to;
// gpu00, whose chain breaks at the misc device, gets nothing guessed.
TEST(DriverFiles, FirmwareStatusBecomesAFindingOfTheGpuItBelongsTo) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    FakeDriverTree tree(scenario.dir() / "driver-root");
    tree.add_gpu("gpu00", 4);  // mtgpu.4 leads nowhere
    tree.add_gpu("gpu01", 1, "0000:07:00.0");
    for (const char* dir : {"gpu00", "gpu01"})
        tree.write(dir, "status", "Driver Status:   OK\nFirmware Status: NOT RESPONDING (Poll failing)\n");
    const auto run = scenario.run({"--json"}, std::chrono::seconds(20), {tree.env()});
    const auto doc = json::parse(run.out);
    ASSERT_EQ(doc["devices"].size(), 2u) << run.out;
    EXPECT_EQ(doc["devices"][1]["index"], 3);
    const auto& found = doc["devices"][1]["health"];
    EXPECT_NE(std::find(found.begin(), found.end(), "firmware NOT RESPONDING (Poll failing)"), found.end()) << found;
    for (const auto& finding : doc["devices"][0]["health"])
        EXPECT_EQ(finding.get<std::string>().find("firmware"), std::string::npos);
    EXPECT_TRUE(doc["devices"][0]["driver"].is_null());
    // ...its status is the host's, with the reason it is tied to no GPU.
    ASSERT_EQ(doc["health"].size(), 1u) << doc["health"];
    const std::string host = doc["health"][0];
    EXPECT_TRUE(host.starts_with("driver gpu00 (tied to no GPU: ")) << host;
    EXPECT_NE(host.find("sys/class/misc/mtgpu.4/device"), std::string::npos) << host;
    EXPECT_TRUE(host.ends_with("): firmware NOT RESPONDING (Poll failing)")) << host;
    ASSERT_EQ(doc["untied_driver_gpus"].size(), 1u);
    EXPECT_EQ(doc["untied_driver_gpus"][0]["directory"], "gpu00");
    EXPECT_EQ(doc["untied_driver_gpus"][0]["status"]["firmware_reason"], "Poll failing");
    const auto text = scenario.run({"--once"}, std::chrono::seconds(20), {tree.env()});
    EXPECT_NE(text.out.find("HEALTH: GPU 3: firmware NOT RESPONDING (Poll failing)"), std::string::npos) << text.out;
}

// The status file, the ring and the reasons in --json; the event in --once, sanitised.
TEST(DriverFiles, StatusAndEventsAreAppendedKeysAndHealthLines) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    const auto tree = loaded_tree(scenario);
    const auto run = scenario.run({"--json"}, std::chrono::seconds(20), {tree.env()});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto doc = json::parse(run.out);
    const auto& gpu0 = doc["devices"][0];
    EXPECT_EQ(gpu0["gpu_utilization_percent"], 42.0);  // GMI's own, untouched
    EXPECT_EQ(gpu0["driver"]["utilization_percent"], 42.0);
    EXPECT_EQ(gpu0["driver"]["engine_utilization_percent"]["2D"], 42.0);
    EXPECT_EQ(gpu0["driver"]["counters"]["Server Errors"], 3);
    ASSERT_EQ(gpu0["driver_events"].size(), 1u);
    EXPECT_EQ(gpu0["driver_events"][0]["xid"], "0x05000002");
    EXPECT_EQ(gpu0["driver_events"][0]["severity"], "fatal");
    EXPECT_EQ(gpu0["driver_events"][0]["pid"], 12345);
    EXPECT_TRUE(gpu0["driver_events_reason"].is_null());
    EXPECT_EQ(doc["devices"][1]["driver_events_reason"],
              "event_report is off (enable_event_report=0) or not in this driver");
    EXPECT_TRUE(doc["devices"][1]["driver_events"].is_null());  // unknown, never an empty list
    const auto text = scenario.run({"--once"}, std::chrono::seconds(20), {tree.env()});
    EXPECT_NE(text.out.find("HEALTH: GPU 0: driver event 0x05000002 MTBIOS GPU_BIOS_TRAP, fatal, "), std::string::npos)
        << text.out;
    EXPECT_EQ(text.out.find('\x1b'), std::string::npos);  // the event's text is sanitised
    EXPECT_NE(text.out.find("POWER/LIMIT      DRV"), std::string::npos) << text.out;
}

// proc_util is opened only with --process-util: here it is a FIFO, which would
// block an open until a writer came, so a run that opened it could not finish.
TEST(DriverFiles, ProcUtilIsNeverOpenedUnasked) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    FakeDriverTree tree(scenario.dir() / "driver-root");
    tree.add_gpu("gpu00", 0, "0000:03:00.0");
    tree.write("gpu00", "status", kFieldStatusUnderLoad);
    const auto fifo = scenario.dir() / "driver-root/proc/driver/musa/gpu00/proc_util";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0666), 0);
    const auto run = scenario.run({"--json"}, std::chrono::seconds(20), {tree.env()});
    ASSERT_FALSE(run.timed_out);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto doc = json::parse(run.out);
    for (const auto& p : doc["processes"]) {
        EXPECT_TRUE(p["gpu_utilization_percent"].is_null());
        EXPECT_TRUE(p["gpu_utilization_reason"].is_null());  // not asked: no reason either
    }
    EXPECT_EQ(scenario.run({"--once"}, std::chrono::seconds(20), {tree.env()}).out.find("GPU%"), std::string::npos);
}

// With --process-util each GMI row gets its proc_util figures, by host PID or by
// VPid; a process the file does not list is null with the reason, never 0.
TEST(DriverFiles, ProcessUtilisationWhenAsked) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    const auto tree = loaded_tree(scenario);
    const auto run = scenario.run({"--json", "--process-util"}, std::chrono::seconds(20), {tree.env()});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto doc = json::parse(run.out);
    const json* on0 = process(doc, 0, 12345);
    const json* on3 = process(doc, 3, 12345);
    const json* by_vpid = process(doc, 3, 23456);
    ASSERT_TRUE(on0 && on3 && by_vpid) << doc["processes"];
    EXPECT_EQ((*on0)["gpu_utilization_percent"], 45.0);
    EXPECT_EQ((*on0)["gpu_engine_utilization_percent"]["CMP"], 45.0);
    EXPECT_TRUE((*on3)["gpu_utilization_percent"].is_null());
    EXPECT_EQ((*on3)["gpu_utilization_reason"], "proc_util lists no row for this process");
    EXPECT_EQ((*by_vpid)["gpu_utilization_percent"], 7.0);
    // --sort gpu_util puts the busiest first and the unknown last, in --once too.
    const auto text =
        scenario.run({"--once", "--process-util", "--sort", "gpu_util"}, std::chrono::seconds(20), {tree.env()});
    const auto first = text.out.find("12345    N/A             1.0GiB    45");
    const auto second = text.out.find("23456    N/A                N/A     7");
    const auto last = text.out.find("12345    N/A             512MiB   N/A");
    EXPECT_TRUE(first < second && second < last && last != std::string::npos) << text.out;
}

// Unreadable parts are unknown with their reason; the rest of the round is whole.
TEST(DriverFiles, BrokenFilesLeaveTheRestOfTheRound) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    FakeDriverTree tree(scenario.dir() / "driver-root");
    tree.add_gpu("gpu00", 0, "0000:03:00.0");
    tree.write("gpu00", "status", std::string(200, '\xff'));  // no line it knows
    std::filesystem::create_directories(scenario.dir() / "driver-root/proc/driver/musa/gpu00/proc_util");
    const auto run = scenario.run({"--json", "--process-util"}, std::chrono::seconds(20), {tree.env()});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto doc = json::parse(run.out);
    EXPECT_EQ(doc["devices"].size(), 2u);
    EXPECT_TRUE(doc["devices"][0]["driver"].is_null());
    EXPECT_TRUE(doc["devices"][0]["driver_reason"].get<std::string>().starts_with("status: ")) << doc["devices"][0];
    const json* p = process(doc, 0, 12345);
    ASSERT_TRUE(p);
    EXPECT_TRUE((*p)["gpu_utilization_reason"].get<std::string>().starts_with("proc_util: ")) << *p;
    EXPECT_TRUE((*process(doc, 3, 23456))["gpu_utilization_reason"].get<std::string>().find("no gpuNN") !=
                std::string::npos);
}

// A driver file that blocks on read (a FIFO here, a driver waiting on a hung card
// there) costs the driver's readings of that round, with the reason, never a hang:
// --json ends within GMI's limit and a recording goes on.
TEST(DriverFiles, AFileThatBlocksCostsItsReadingsNeverAHang) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    FakeDriverTree tree(scenario.dir() / "driver-root");
    tree.add_gpu("gpu01", 1, "0000:07:00.0");
    const auto fifo = scenario.dir() / "driver-root/proc/driver/musa/gpu01/status";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);  // no writer: an open for reading never returns
    const auto started = std::chrono::steady_clock::now();
    const auto run = scenario.run({"--json", "--timeout", "1"}, std::chrono::seconds(20), {tree.env()});
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(8));
    const auto doc = json::parse(run.out);
    EXPECT_EQ(doc["devices_stale"], false);
    for (const auto& device : doc["devices"]) {
        EXPECT_TRUE(device["driver"].is_null()) << device.dump();
        EXPECT_TRUE(device["driver_events"].is_null()) << device.dump();
        EXPECT_NE(device["driver_reason"].get<std::string>().find("did not answer within 1.0 s"), std::string::npos)
            << device.dump();
    }
    const std::string file = (scenario.dir() / "r.rec").string();
    const auto recorded = scenario.run({"record", file, "--timeout", "1", "--interval", "0.2", "--duration", "2.5"},
                                       std::chrono::seconds(20), {tree.env()});
    EXPECT_EQ(recorded.exit_code, 0) << recorded.err;
    const auto replayed = scenario.run({"replay", file, "--json", "--from", "+0s"});
    const auto frames = std::count(replayed.out.begin(), replayed.out.end(), '\n');
    EXPECT_GE(frames, 2) << replayed.out;
    EXPECT_NE(replayed.out.find("has been blocked for"), std::string::npos);  // later rounds start no new read
}
