// `musatop --json` / `--once` end to end: the built binary against the fake GMI.
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "scenario.hpp"

using namespace musatop::testing;
using json = nlohmann::ordered_json;

namespace {

json parse_json(const RunResult& run) {
    EXPECT_FALSE(run.timed_out);
    return json::parse(run.out);
}

// The reference example of spec 3.5 with the host- and time-dependent values blanked.
json without_volatile_fields(json doc) {
    for (const char* key : {"sampled_at", "devices_sampled_at", "processes_sampled_at"})
        if (!doc[key].is_null()) doc[key] = "<time>";
    doc["host"] = "<host>";
    return doc;
}

// The reference's part of a document: later additions to schema 1 (keys the
// reference does not have) are dropped, everywhere in the tree.
json reference_part(const json& doc, const json& reference) {
    if (doc.is_object() && reference.is_object()) {
        json out = json::object();
        for (const auto& [key, value] : reference.items())
            if (doc.contains(key)) out[key] = reference_part(doc[key], value);
        return out;
    }
    if (doc.is_array() && reference.is_array() && doc.size() == reference.size()) {
        json out = json::array();
        for (std::size_t i = 0; i < doc.size(); ++i) out.push_back(reference_part(doc[i], reference[i]));
        return out;
    }
    return doc;
}

// In every object, the keys the reference has come before any added key.
void expect_additions_after_reference_keys(const nlohmann::ordered_json& doc, const json& reference) {
    if (doc.is_object() && reference.is_object()) {
        bool added_seen = false;
        for (const auto& [key, value] : doc.items()) {
            const bool in_reference = reference.contains(key);
            EXPECT_FALSE(in_reference && added_seen) << key << " follows an added key";
            added_seen = added_seen || !in_reference;
            if (in_reference) expect_additions_after_reference_keys(value, reference[key]);
        }
    } else if (doc.is_array() && reference.is_array() && doc.size() == reference.size()) {
        for (std::size_t i = 0; i < doc.size(); ++i) expect_additions_after_reference_keys(doc[i], reference[i]);
    }
}

const char* const reference_json = R"({
  "schema_version": 1, "sampled_at": "<time>", "devices_sampled_at": "<time>", "processes_sampled_at": "<time>",
  "driver_version": "3.3.8-server", "gmi_version": "2.3.3", "musa_version": null, "musa_version_source": null,
  "musa_version_reason": "No MUSA Toolkit installation found", "host": "<host>",
  "devices": [
    {"index": 0, "uuid": "fixture-gpu-0", "name": "X10000", "bus_id": "00000000:03:00.0",
     "gpu_utilization_percent": 42.0, "memory_utilization_percent": 19.0, "memory_used_bytes": 1073741824,
     "memory_total_bytes": 85899345920, "memory_free_bytes": 84825604096, "temperature_c": 34.0,
     "power_draw_w": 367.49, "power_limit_w": 950.0, "power_limit_reason": null, "graphics_clock_mhz": 1750.0,
     "memory_clock_mhz": 2500.0},
    {"index": 3, "uuid": "fixture-gpu-3", "name": "X10000", "bus_id": "00000000:07:00.0",
     "gpu_utilization_percent": 0.0, "memory_utilization_percent": null, "memory_used_bytes": null,
     "memory_total_bytes": 85899345920, "memory_free_bytes": null, "temperature_c": null, "power_draw_w": null,
     "power_limit_w": null, "power_limit_reason": "Current power limit is not reported by GMI",
     "graphics_clock_mhz": null, "memory_clock_mhz": null}],
  "processes": [
    {"device_index": 0, "pid": 12345, "device_uuid": "fixture-gpu-0", "gpu_memory_bytes": 1073741824,
     "username": null, "command": "python3 train.py --name example", "cpu_percent": null, "rss_bytes": null,
     "create_time": null, "running_seconds": null, "status": "exited"},
    {"device_index": 3, "pid": 12345, "device_uuid": "fixture-gpu-3", "gpu_memory_bytes": 536870912,
     "username": null, "command": "python3 train.py --name example", "cpu_percent": null, "rss_bytes": null,
     "create_time": null, "running_seconds": null, "status": "exited"},
    {"device_index": 3, "pid": 23456, "device_uuid": "fixture-gpu-3", "gpu_memory_bytes": null,
     "username": null, "command": "/usr/bin/python3", "cpu_percent": null, "rss_bytes": null,
     "create_time": null, "running_seconds": null, "status": "exited"}],
  "devices_stale": false, "processes_stale": false, "errors": [],
  "device_source": "gmi-json", "device_source_reason": null, "processes_unverified_reason": null})";

// The fixture PIDs must not exist here for "exited" to be the truth.
bool pid_in_use(pid_t pid) { return ::kill(pid, 0) == 0 || errno == EPERM; }

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
        lines.push_back(text.substr(start, end - start));
    return lines;
}

std::string process_table_with(const std::vector<std::pair<int, long>>& rows) {
    std::vector<FakeProcessRow> table;
    for (const auto& [gpu, pid] : rows) table.push_back({gpu, pid, "/usr/bin/sleep 300", 111});
    return gmi_process_table(table);
}

void expect_no_fake_left_running(const Scenario& scenario) {
    const std::string log = read_text(scenario.dir() / "calls.log");
    for (const auto& line : lines_of(log)) {
        const pid_t pid = std::stoi(line.substr(line.rfind(' ') + 1));
        EXPECT_TRUE(wait_until_dead(pid)) << line;
    }
}

}  // namespace

TEST(OneShot, ReferenceFixturesGiveTheReferenceJson) {
    if (pid_in_use(12345) || pid_in_use(23456)) GTEST_SKIP() << "a fixture PID exists on this host";
    Scenario scenario;
    scenario.use_reference_fixtures();
    const auto run = scenario.run({"--json"});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    const json reference = json::parse(reference_json);
    const json doc = without_volatile_fields(parse_json(run));
    EXPECT_EQ(reference_part(doc, reference), reference);
    expect_additions_after_reference_keys(nlohmann::ordered_json::parse(run.out), reference);
    EXPECT_EQ(run.out.back(), '\n');
    EXPECT_EQ(run.out.find("\n  \"schema_version\": 1,\n"), 1u);
}

TEST(OneShot, ReferenceFixturesGiveTheReferenceText) {
    if (pid_in_use(12345) || pid_in_use(23456)) GTEST_SKIP() << "a fixture PID exists on this host";
    Scenario scenario;
    scenario.use_reference_fixtures();
    const auto run = scenario.run({"--once"});
    EXPECT_EQ(run.exit_code, 0);
    const auto lines = lines_of(run.out);
    ASSERT_EQ(lines.size(), 12u) << run.out;
    EXPECT_EQ(lines[0].rfind("musatop | 20", 0), 0u);
    EXPECT_EQ(lines[1], "Driver: 3.3.8-server  GMI: 2.3.3  MUSA Toolkit: N/A");
    EXPECT_EQ(lines[2].rfind("Host: ", 0), 0u);
    EXPECT_EQ(lines[4], "0    X10000                 42%    1.0GiB/80.0GiB     34C  367W/950W");
    EXPECT_EQ(lines[5], "3    X10000                  0%       N/A/80.0GiB     N/A  N/A/N/A");
    EXPECT_EQ(lines[7],
              "0    12345    N/A             1.0GiB    N/A       N/A        N/A  python3 train.py --name example");
    EXPECT_EQ(lines[9], "3    23456    N/A                N/A    N/A       N/A        N/A  /usr/bin/python3");
    EXPECT_EQ(lines[10], "NOTE: MUSA Toolkit: No MUSA Toolkit installation found");
    EXPECT_EQ(lines[11].rfind("NOTE: GPU 3 power limit unavailable from GMI", 0), 0u);
}

TEST(OneShot, WithoutATerminalTheDefaultIsText) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    const auto run = scenario.run({});
    EXPECT_EQ(run.exit_code, 0);
    EXPECT_EQ(run.out.rfind("musatop | ", 0), 0u);
}

TEST(OneShot, AsciiAndNoColorDoNotChangeOneShotOutput) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    // A fixture PID that is a live process in one run and not the other would
    // change its row (its uptime), not the style.
    const auto fixture_pids_live = [] { return pid_in_use(12345) || pid_in_use(23456); };
    if (fixture_pids_live()) GTEST_SKIP() << "a fixture PID exists on this host";
    auto plain = lines_of(scenario.run({"--once"}).out);
    auto styled = lines_of(scenario.run({"--once", "--ascii", "--no-color"}).out);
    if (fixture_pids_live()) GTEST_SKIP() << "a fixture PID appeared on this host";
    ASSERT_EQ(plain.size(), styled.size());
    for (std::size_t i = 3; i < plain.size(); ++i) EXPECT_EQ(plain[i], styled[i]);
}

TEST(OneShot, FiltersApplyToJson) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    const auto doc = parse_json(scenario.run({"--json", "--gpu", "3", "--pid", "23456", "--sort", "pid"}));
    ASSERT_EQ(doc["devices"].size(), 1u);
    EXPECT_EQ(doc["devices"][0]["index"], 3);
    ASSERT_EQ(doc["processes"].size(), 1u);
    EXPECT_EQ(doc["processes"][0]["pid"], 23456);
    EXPECT_TRUE(doc["errors"].empty());
}

TEST(OneShot, RealS80SampleWithoutJsonSupportUsesTheSummaryTable) {
    Scenario scenario;
    scenario.set_fixture("summary.out", "002-s80-table-procs-gmi2.0.0-drv3.0.0.txt");
    scenario.set("query.rc", "2");
    scenario.set("query.err", "mthreads-gmi: unrecognized option '--json'\n");
    scenario.set("version.rc", "2");
    const auto run = scenario.run({"--json"});
    EXPECT_EQ(run.exit_code, 0) << run.out;
    const auto doc = parse_json(run);
    EXPECT_EQ(doc["device_source"], "gmi-summary");
    EXPECT_NE(doc["device_source_reason"].get<std::string>().find("GMI exited with code 2"), std::string::npos);
    EXPECT_EQ(doc["gmi_version"], "2.0.0");
    EXPECT_EQ(doc["driver_version"], "3.0.0");
    ASSERT_EQ(doc["devices"].size(), 1u);
    EXPECT_EQ(doc["devices"][0]["name"], "MTT S80");
    EXPECT_EQ(doc["devices"][0]["memory_used_bytes"], 662LL << 20);
    EXPECT_TRUE(doc["devices"][0]["power_draw_w"].is_null());
    ASSERT_EQ(doc["processes"].size(), 2u);
    EXPECT_EQ(doc["processes"][0]["gpu_memory_bytes"], 134LL << 20);
    const auto text = scenario.run({"--once"});
    EXPECT_NE(text.out.find("NOTE: mthreads-gmi -q --json failed"), std::string::npos);
}

TEST(OneShot, RealEightGpuSampleWithNoProcesses) {
    Scenario scenario;
    scenario.set_fixture("summary.out", "003-s5000x8-table-noprocs-gmi2.4.1-drv5.1.0.txt");
    scenario.set("query.rc", "1");  // an older GMI: the table is the device source
    const auto doc = parse_json(scenario.run({"--json"}));
    ASSERT_EQ(doc["devices"].size(), 8u);
    EXPECT_TRUE(doc["processes"].empty());
    EXPECT_FALSE(doc["processes_stale"]);
    EXPECT_EQ(doc["devices"][0]["pcie_link_width_current"], 16);
    EXPECT_EQ(doc["devices"][0]["pcie_link_width_max"], 16);
    EXPECT_EQ(doc["devices"][0]["performance_state"], "P0");
    EXPECT_EQ(doc["devices"][0]["ecc_mode"], "On-die, EDC");
    EXPECT_TRUE(doc["devices"][0]["pcie_generation_current"].is_null());  // the table has no generation
    const auto text = scenario.run({"--once"});
    EXPECT_NE(text.out.find("No matching GPU processes."), std::string::npos);
}

TEST(OneShot, RealSampleWithTruncatedNames) {
    Scenario scenario;
    scenario.set_fixture("summary.out", "012-s80-table-procs-truncname-gmi1.14.0-drv2.7.0.txt");
    scenario.set("query.rc", "1");
    const auto doc = parse_json(scenario.run({"--json"}));
    ASSERT_EQ(doc["processes"].size(), 2u);
    EXPECT_EQ(doc["processes"][0]["gpu_memory_bytes"], 1333LL << 20);  // sorted by GPU memory
    EXPECT_EQ(doc["devices"][0]["gpu_utilization_percent"], 98.0);
}

TEST(OneShotFailures, GmiMissing) {
    Scenario scenario;
    std::filesystem::remove(scenario.dir() / "bin/mthreads-gmi");
    const auto run = scenario.run({"--json"});
    EXPECT_EQ(run.exit_code, 1);
    const auto doc = parse_json(run);
    EXPECT_EQ(doc["errors"], json::parse(R"(["devices: GMI executable not found: mthreads-gmi",
                                              "processes: GMI executable not found: mthreads-gmi"])"));
    EXPECT_TRUE(doc["devices_stale"] && doc["processes_stale"]);
    EXPECT_TRUE(doc["devices_sampled_at"].is_null());
    const auto text = scenario.run({"--once"});
    EXPECT_EQ(text.exit_code, 1);
    EXPECT_NE(text.out.find("Device data unavailable.\n"), std::string::npos);
    EXPECT_NE(text.out.find("STALE: devices=True, processes=True; last successful samples: None, None\n"),
              std::string::npos);
    EXPECT_NE(text.out.find("ERROR: devices: GMI executable not found: mthreads-gmi\n"), std::string::npos);
}

TEST(OneShotFailures, NeverRunFromTheCurrentDirectory) {
    Scenario scenario;
    std::filesystem::remove(scenario.dir() / "bin/mthreads-gmi");
    std::filesystem::copy_file(MUSATOP_FAKE_GMI, scenario.dir() / "mthreads-gmi");
    const auto cwd = std::filesystem::current_path();
    std::filesystem::current_path(scenario.dir());
    const auto run = scenario.run({"--json"}, std::chrono::seconds(20), {"PATH=.::/usr/bin:/bin"});
    std::filesystem::current_path(cwd);
    EXPECT_NE(run.out.find("GMI executable not found"), std::string::npos);
    EXPECT_EQ(scenario.calls("query"), 0);
}

TEST(OneShotFailures, GmiNotExecutable) {
    Scenario scenario;
    std::filesystem::remove(scenario.dir() / "bin/mthreads-gmi");
    write_text(scenario.dir() / "bin/mthreads-gmi", "#!/bin/sh\n");
    const auto doc = parse_json(scenario.run({"--json"}));
    EXPECT_EQ(doc["errors"][0], "devices: GMI command could not start: Permission denied");
}

TEST(OneShotFailures, GmiExitsNonZeroWithAMessage) {
    Scenario scenario;
    for (const char* kind : {"query", "summary"}) {
        scenario.set(std::string(kind) + ".rc", "9");
        scenario.set(std::string(kind) + ".err", "Failed to initialize MTML: Driver Not Loaded\n");
    }
    const auto run = scenario.run({"--json"});
    EXPECT_EQ(run.exit_code, 1);
    EXPECT_EQ(parse_json(run)["errors"],
              json::parse(R"(["devices: GMI exited with code 9: Failed to initialize MTML: Driver Not Loaded",
                              "processes: GMI exited with code 9: Failed to initialize MTML: Driver Not Loaded"])"));
}

TEST(OneShotFailures, HangingGmiIsCutByTheTimeoutAndLeavesNoChild) {
    Scenario scenario;
    scenario.set("query.hang", "");
    scenario.set("summary.hang", "");
    scenario.set("version.hang", "");
    const auto run = scenario.run({"--json", "--timeout", "0.5"});
    EXPECT_FALSE(run.timed_out);
    EXPECT_EQ(run.exit_code, 1);
    const auto doc = parse_json(run);
    EXPECT_EQ(doc["errors"][0], "devices: GMI command timed out: mthreads-gmi -q --json");
    EXPECT_EQ(doc["errors"][1], "processes: GMI command timed out: mthreads-gmi");
    expect_no_fake_left_running(scenario);
}

TEST(OneShotFailures, KilledBySignal) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    scenario.set("query.signal", "SEGV");
    const auto doc = parse_json(scenario.run({"--json"}));
    EXPECT_EQ(doc["errors"][0].get<std::string>().rfind("devices: GMI was killed by signal 11", 0), 0u);
    EXPECT_TRUE(doc["devices_stale"]);
    EXPECT_FALSE(doc["processes_stale"]);
}

TEST(OneShotFailures, GarbageAndBinaryOutput) {
    Scenario scenario;
    scenario.set("query.out", std::string("\x89PNG\r\n\x1a\n\0\0\xff garbage", 20));
    scenario.set("summary.out", "lorem ipsum\n");
    const auto run = scenario.run({"--json"});
    EXPECT_EQ(run.exit_code, 1);
    const auto doc = parse_json(run);
    EXPECT_EQ(doc["errors"][0].get<std::string>().rfind("devices: invalid GMI JSON: ", 0), 0u);
    EXPECT_EQ(doc["errors"][1], "processes: GMI process table is missing");
    for (unsigned char c : run.out) EXPECT_LT(c, 0x80);
}

TEST(OneShotFailures, NothingPrinted) {
    Scenario scenario;
    scenario.set("query.out", "");
    scenario.set("summary.out", "\n\n");
    const auto doc = parse_json(scenario.run({"--json"}));
    EXPECT_EQ(doc["errors"][0], "devices: GMI printed no output: mthreads-gmi -q --json");
    EXPECT_EQ(doc["errors"][1], "processes: GMI printed no output: mthreads-gmi");
}

TEST(OneShotFailures, TensOfMegabytes) {
    Scenario scenario;
    scenario.set_fixture("query.out", "gmi_query.json");
    scenario.set("summary.out", std::string(30 * 1024 * 1024, 'x'));
    const auto run = scenario.run({"--json"});
    EXPECT_EQ(run.exit_code, 1);
    EXPECT_EQ(parse_json(run)["errors"][0], "processes: GMI output exceeded the size limit: mthreads-gmi");
    expect_no_fake_left_running(scenario);
}

TEST(OneShotFailures, ErrorLineOnExitZero) {
    Scenario scenario;
    scenario.set("query.out", "Error: No MT GPU device found.\n");
    scenario.set("summary.out", "Error: No MT GPU device found.\n");
    const auto run = scenario.run({"--once"});
    EXPECT_EQ(run.exit_code, 1);
    EXPECT_NE(run.out.find("ERROR: devices: GMI reported an error: Error: No MT GPU device found."), std::string::npos);
    EXPECT_EQ(run.out.find("No GPUs found."), std::string::npos);
}

TEST(OneShotCollection, QueryAndSummaryRunConcurrently) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    scenario.set("query.await", "summary");
    scenario.set("summary.await", "query");
    const auto run = scenario.run({"--json"});
    EXPECT_EQ(run.exit_code, 0) << run.out;
    EXPECT_EQ(scenario.calls("version"), 0);  // the banner states the version: two calls in all
}

TEST(OneShotCollection, BadFlagsNeverTouchGmi) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{{"--interval", "nan"},
                                                                                      {"--interval", "0"},
                                                                                      {"--gpu", "0,-1"},
                                                                                      {"--pid", "10,"},
                                                                                      {"--sort", "invalid"},
                                                                                      {"--bogus"}}) {
        const auto run = scenario.run(args);
        EXPECT_EQ(run.exit_code, 2) << args[0];
        EXPECT_TRUE(run.out.empty());
        EXPECT_NE(run.err.find("musatop: error:"), std::string::npos);
    }
    EXPECT_EQ(scenario.run({"--version"}).exit_code, 0);
    EXPECT_EQ(scenario.run({"--help"}).exit_code, 0);
    EXPECT_EQ(scenario.calls("query") + scenario.calls("summary") + scenario.calls("version"), 0);
}

TEST(OneShotCollection, ClosedPipeIsSuccess) {
    Scenario scenario;
    std::vector<std::pair<int, long>> rows;
    for (int i = 1; i <= 3000; ++i) rows.emplace_back(0, 4000000 + i);  // enough JSON to fill a pipe
    scenario.set_fixture("query.out", "gmi_query.json");
    scenario.set("summary.out", process_table_with(rows));
    const auto piped =
        scenario.run_script("set -o pipefail\n\"$1\" --json | head -c 10 > /dev/null\necho \"status=$?\"\n");
    EXPECT_EQ(piped.out, "status=0\n");
}

TEST(OneShotProcesses, LiveChildIsEnrichedThenSeenExited) {
    SleepChild sleeper;
    const pid_t child = sleeper.pid();
    Scenario scenario;
    scenario.set_fixture("query.out", "gmi_query.json");
    scenario.set("summary.out", process_table_with({{0, child}, {3, child}}));
    auto doc = parse_json(scenario.run({"--json", "--sort", "gpu"}));
    ASSERT_EQ(doc["processes"].size(), 2u);
    for (const auto& p : doc["processes"]) {
        EXPECT_EQ(p["status"], "ok");
        EXPECT_EQ(p["command"], "sleep 300");
        EXPECT_FALSE(p["username"].is_null());
        EXPECT_GT(p["rss_bytes"].get<long>(), 0);
        EXPECT_TRUE(p["create_time"].is_number_float());
        EXPECT_TRUE(p["cpu_percent"].is_null());
    }
    EXPECT_EQ(doc["processes"][1]["device_uuid"], "fixture-gpu-3");
    const auto text = scenario.run({"--once", "--sort", "pid"});
    EXPECT_NE(text.out.find("sleep 300\n"), std::string::npos);
    sleeper.stop(SIGKILL);
    doc = parse_json(scenario.run({"--json"}));
    EXPECT_EQ(doc["processes"][0]["status"], "exited");
    EXPECT_EQ(doc["processes"][0]["command"], "/usr/bin/sleep 300");
}

TEST(OneShotProcesses, InterruptDuringCollectionExits130) {
    Scenario scenario;
    scenario.set("query.hang", "");
    const auto outcome = scenario.run_script(
        "\"$1\" --json > /dev/null 2>&1 & pid=$!\n"
        "until grep -q '^query ' \"$FAKE_GMI_DIR/calls.log\" 2>/dev/null; do sleep 0.01; done\n"
        "kill -INT $pid; wait $pid; echo \"status=$?\"\n");
    EXPECT_EQ(outcome.out, "status=130\n");
    expect_no_fake_left_running(scenario);
}

TEST(OneShotDemo, DemoNeverRunsGmiAndSaysSo) {
    Scenario scenario;
    const auto run = scenario.run({"--json", "--demo"});
    EXPECT_EQ(run.exit_code, 0);
    const auto doc = parse_json(run);
    EXPECT_EQ(doc["device_source"], "demo");
    EXPECT_EQ(doc["devices"].size(), 8u);
    EXPECT_FALSE(doc["processes"].empty());
    EXPECT_EQ(scenario.calls("query") + scenario.calls("summary"), 0);
    EXPECT_NE(scenario.run({"--once", "--demo"}).out.find("DEMO DATA"), std::string::npos);
}
