// The snapshot document read back (for remote nodes and recordings): every
// document render_json writes parses back to one that renders identically, and
// documents of another shape are refused with a reason.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "musatop/collection/demo/demo_source.hpp"
#include "musatop/model/plausible.hpp"
#include "musatop/output/json_input.hpp"
#include "musatop/output/json_output.hpp"
#include "test_support.hpp"

using namespace musatop;

namespace {

void expect_round_trip(const Snapshot& snapshot) {
    const std::string first = render_json(snapshot);
    const auto parsed = parse_json_snapshot(first);
    ASSERT_TRUE(parsed.ok()) << parsed.error() << "\n" << first;
    EXPECT_EQ(render_json(parsed.value()), first);
}

}  // namespace

TEST(JsonInput, DemoSnapshotsRoundTrip) {
    for (double t : {0.0, 1.5, 77.25, 3600.0}) {
        Snapshot s = make_demo_snapshot(t, WallTime(std::chrono::microseconds(1796279232208289)));
        s.host.hostname = "node-1";
        s.host.cpu_percent = 12.5;
        expect_round_trip(s);
    }
}

TEST(JsonInput, UnknownStaleHostileAndUnicodeRoundTrip) {
    Snapshot s;
    s.sampled_at = WallTime(std::chrono::seconds(1800000000));
    s.devices_stale = true;
    s.errors = {"devices: GMI command timed out: mthreads-gmi -q --json", "processes: \"quoted\" \\ back"};
    Device d;
    d.index = 3;
    d.name = "MTT S5000 宽 \u00e9";
    d.memory_total_bytes = 4000LL << 40;  // 4000 TiB: large, still within what a device may have
    d.retired_pages_pending = false;      // a known "no" stays false, not null
    d.health = {"PCIe link x4, below its maximum x16", "\x1b[31m hostile"};
    s.devices = {d};
    s.health = {"GMI counts 8 attached GPUs but lists 1: 7 missing (a lost card?)"};
    GpuProcess p;
    p.device_index = 3;
    p.pid = 4242;
    p.command = "python \x1b[2J train.py";
    p.status = ProcessStatus::access_denied;
    p.create_time = 1796220311.89;
    p.attribution.slurm_job_id = 4242;
    p.attribution.slurm_step = "batch";
    p.attribution.systemd_unit = "slurmstepd.scope";
    s.processes = {p};
    s.device_source = DeviceSource::gmi_summary;
    s.device_source_reason = "mthreads-gmi -q --json failed";
    s.processes_unverified_reason = "own PID namespace";
    expect_round_trip(s);
}

TEST(JsonInput, TheReferenceDocumentOfTheOneShotTestsParses) {
    const auto parsed = parse_json_snapshot(R"({"schema_version": 1, "sampled_at": "2026-12-02T10:00:00Z",
        "host": {"hostname": "h"}, "devices": [{"index": 0, "gpu_utilization_percent": 42}], "processes": [],
        "devices_stale": false, "processes_stale": false, "errors": [], "a_later_key": [1, 2]})");
    ASSERT_TRUE(parsed.ok()) << parsed.error();
    EXPECT_EQ(parsed->devices.at(0).gpu_utilization_percent, 42.0);  // an integer where a float is expected
    EXPECT_EQ(parsed->sampled_at, WallTime(std::chrono::seconds(1796205600)));
    EXPECT_EQ(parsed->device_source, DeviceSource::none);
    EXPECT_TRUE(parsed->health.empty());  // written before the key existed
    EXPECT_TRUE(parsed->devices.at(0).health.empty());
    const auto bad = parse_json_snapshot(R"({"schema_version": 1, "sampled_at": "2026-12-02T10:00:00Z",
        "host": {}, "devices": [{"index": 0, "health": [3]}], "processes": [],
        "devices_stale": false, "processes_stale": false, "errors": []})");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error(), "invalid snapshot: health holds something other than text");
}

TEST(JsonInput, OtherDocumentsAreRefusedWithAReason) {
    const auto error = [](std::string_view text) {
        const auto r = parse_json_snapshot(text);
        return r.ok() ? std::string("accepted") : r.error();
    };
    EXPECT_EQ(error("<html>oops</html>"), "not JSON");
    EXPECT_EQ(error("[1]"), "not a JSON object");
    EXPECT_EQ(error(R"({"status": "ok"})"), "no schema_version: not a musatop snapshot");
    EXPECT_EQ(error(R"({"schema_version": 2})"), "schema_version 2 is not 1");
    const std::string base = R"({"schema_version": 1, "sampled_at": "2026-12-02T10:00:00.5+00:00", "host": {},
        "processes_stale": false, "errors": [], "devices_stale": false, )";
    EXPECT_EQ(error(base + R"("devices": {}, "processes": []})"), "invalid snapshot: devices is not a list");
    EXPECT_EQ(error(base + R"("devices": [{"uuid": "x"}], "processes": []})"), "invalid snapshot: missing index");
    EXPECT_EQ(error(base + R"("devices": [{"index": "0"}], "processes": []})"),
              "invalid snapshot: index is not an integer");
    EXPECT_EQ(error(base + R"("devices": [], "processes": [{"device_index": 0, "pid": 1, "status": "zombie"}]})"),
              "invalid snapshot: process status is not ok, access_denied, exited or unverified");
    EXPECT_EQ(error(base + R"("devices": [{"index": 18446744073709551615}], "processes": []})"),
              "invalid snapshot: index is out of range");
}

TEST(JsonInput, Iso8601AsRenderJsonWritesIt) {
    EXPECT_EQ(parse_iso8601("1970-01-01T00:00:01.000002+00:00"),
              WallTime(std::chrono::seconds(1)) + std::chrono::microseconds(2));
    EXPECT_EQ(parse_iso8601("2026-12-02T10:00:00Z"), WallTime(std::chrono::seconds(1796205600)));
    EXPECT_TRUE(parse_iso8601("2262-04-11T00:00:00Z"));  // the last day a nanosecond clock reaches
    for (const char* bad :
         {"", "2026-12-02", "2026-12-02T10:00:00", "2026-13-02T10:00:00Z", "2026-12-02T10:00:00+01:00",
          "2026-12-02T10:00:00.Z", "2026-12-02T25:00:00Z", "9362-12-02T10:00:00Z", "2262-04-12T00:00:00Z"})
        EXPECT_FALSE(parse_iso8601(bad)) << bad;
}

TEST(JsonInput, OneReaderManyDocumentsPaddedOrNot) {
    JsonSnapshotReader reader;
    const Snapshot demo = make_demo_snapshot(1.5, WallTime(std::chrono::seconds(1796205600)));
    const std::string text = render_json(demo);
    std::string padded = text;
    padded.reserve(text.size() + 64);  // read where it lies
    std::string tight = text;
    tight.shrink_to_fit();  // copied into the reader's padded buffer first
    for (const std::string* document : {&padded, &tight, &padded}) {
        const auto parsed = reader.read(*document);
        ASSERT_TRUE(parsed.ok()) << parsed.error();
        EXPECT_EQ(render_json(parsed.value()), text);
    }
    // A bad document between two good ones leaves nothing behind in the reader.
    EXPECT_EQ(reader.read(std::string_view("{\"schema_version\": 1")).error(), "not JSON");
    EXPECT_TRUE(reader.read(std::string_view(text)).ok());
}

// Numbers no GPU or host can report are unknown, not shown: a hostile or broken
// node printed "-9223372036854775808 %" and overflowed the cluster's VRAM total.
TEST(JsonInput, ImplausibleValuesAreUnknown) {
    const auto parsed = parse_json_snapshot(
        R"({"schema_version": 1, "sampled_at": "2026-12-02T10:00:00Z", "host": {"cpu_percent": 1e300},)"
        R"("devices": [{"index": 0, "gpu_utilization_percent": -9223372036854775808,)"
        R"( "memory_used_bytes": 9223372036854775807, "memory_total_bytes": 34359738368,)"
        R"( "temperature_c": 1e308, "power_draw_w": 250.5, "fan_speed_percent": 101}],)"
        R"("processes": [{"device_index": 0, "pid": 7, "gpu_memory_bytes": -8796093022208, "cpu_percent": 350,)"
        R"( "status": "ok"}], "devices_stale": false, "processes_stale": false, "errors": []})");
    ASSERT_TRUE(parsed.ok()) << parsed.error();
    const Device& d = parsed.value().devices.at(0);
    EXPECT_FALSE(d.gpu_utilization_percent);
    EXPECT_FALSE(d.memory_used_bytes);
    EXPECT_EQ(d.memory_total_bytes, 34359738368);
    EXPECT_FALSE(d.temperature_c);
    EXPECT_EQ(d.power_draw_w, 250.5);
    EXPECT_FALSE(d.fan_speed_percent);
    EXPECT_FALSE(parsed.value().host.cpu_percent);
    EXPECT_FALSE(parsed.value().processes.at(0).gpu_memory_bytes);
    EXPECT_EQ(parsed.value().processes.at(0).cpu_percent, 350);  // several cores
    EXPECT_EQ(saturating_add(INT64_MAX - 1, 5), INT64_MAX);
    EXPECT_EQ(saturating_add(kMaxPlausibleBytes, kMaxPlausibleBytes), 2 * kMaxPlausibleBytes);
}

TEST(JsonInput, HostileShapesAreRefusedOrIgnoredWithoutHarm) {
    const std::string head = R"({"schema_version": 1, "sampled_at": "2026-12-02T10:00:00Z", "host": {}, )"
                             R"("devices": [], "processes": [], "devices_stale": false, "processes_stale": false, )"
                             R"("errors": [], )";
    // A million levels under a key this reader does not know: skipped on the heap.
    const std::string deep = head + R"("later": )" + std::string(1000000, '[') + std::string(1000000, ']') + "}";
    EXPECT_TRUE(parse_json_snapshot(deep).ok());
    EXPECT_EQ(parse_json_snapshot(std::string(1000000, '[')).error(), "not JSON");
    // A NUL would end the text early for the parser: refused, not cut short.
    EXPECT_EQ(parse_json_snapshot(head + R"("x": 1})" + std::string(1, '\0') + "garbage").error(), "not JSON");
    // Objects and lists where values belong, and values where objects belong.
    EXPECT_EQ(parse_json_snapshot(head + R"("health": {"a": 1}})").error(), "invalid snapshot: health is not a list");
    const std::string base = R"({"schema_version": 1, "sampled_at": "2026-12-02T10:00:00Z", "host": {}, )"
                             R"("processes": [], "devices_stale": false, "processes_stale": false, "errors": [], )";
    EXPECT_EQ(parse_json_snapshot(base + R"("devices": [7]})").error(), "invalid snapshot: a device is not an object");
    EXPECT_EQ(parse_json_snapshot(base + R"("devices": [{"index": 0, "name": ["x"]}]})").error(),
              "invalid snapshot: name is not a string");
    EXPECT_EQ(parse_json_snapshot(base + R"("devices": [{"index": 0, "health": "x"}]})").error(),
              "invalid snapshot: health is not a list");
    EXPECT_EQ(parse_json_snapshot(R"({"schema_version": 1, "host": {}})").error(),
              "invalid snapshot: missing sampled_at");
    EXPECT_EQ(parse_json_snapshot(R"({"schema_version": "1"})").error(),
              "invalid snapshot: schema_version is not an integer");
    // Numbers come back exactly as they were written.
    Snapshot exact = make_demo_snapshot(1.5, WallTime(std::chrono::seconds(1796205600)));
    exact.devices.at(0).power_draw_w = 0.1 + 0.2;
    exact.devices.at(0).temperature_c = 1e-300;
    const std::string text = render_json(exact);
    const auto back = parse_json_snapshot(text);
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(back->devices.at(0).power_draw_w, 0.1 + 0.2);
    EXPECT_EQ(render_json(back.value()), text);
}

namespace {

// A snapshot carrying everything the driver's files give, hostile text included.
Snapshot driver_snapshot() {
    Snapshot s = make_demo_snapshot(1.5, WallTime(std::chrono::seconds(1796205600)));
    DriverStatus status;
    status.driver_status = "OK";
    status.firmware_status = "NOT RESPONDING";
    status.firmware_reason = "Poll failing";
    status.device_id = "0:0";
    status.overall_utilization_percent = 97;
    status.engines = {{"GEOM", 0.0}, {"COMP", 97.0}, {"new \x1b[2J engine", std::nullopt}};
    status.counters = {{"Server Errors", 4294967295LL}, {"HWR", 2}};
    s.devices.at(0).driver = status;
    DriverEvent fatal;
    fatal.id = 0x05000002, fatal.module = "MTBIOS", fatal.name = "GPU_BIOS_TRAP";
    fatal.severity = EventSeverity::fatal, fatal.scope = EventScope::gpu;
    fatal.time_seconds = 1796205500, fatal.bus_id = "0000:18:00.0", fatal.pid = 2993483;
    fatal.uuid = "9a5ce014-c42d-e01b-a563-e7d639343600";
    fatal.text = "xid \"inject\"\n\x1b]0;title\x07";
    DriverEvent old;
    old.generation = 1, old.id = 7, old.time_seconds = 1796000000;  // gen1: no severity, scope, module
    s.devices.at(0).driver_events = std::vector<musatop::DriverEvent>{old, fatal};
    s.processes.at(0).gpu_utilization_percent = 45;
    s.processes.at(0).gpu_engine_utilization = {{"2D", 0.0}, {"CMP", 45.0}};
    s.processes.at(1).gpu_utilization_reason = "proc_util lists no row for this process";
    s.untied_driver_gpus = {{"gpu0a", "devname is 'x', not mtgpu.N", status}};
    return s;
}

}  // namespace

// The driver's figures go out as appended keys and come back whole: a recording and
// a remote node keep them.
TEST(JsonInput, TheDriversFiguresRoundTrip) {
    const Snapshot s = driver_snapshot();
    expect_round_trip(s);
    const auto back = parse_json_snapshot(render_json(s));
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(back->devices.at(0).driver, s.devices.at(0).driver);
    EXPECT_EQ(back->devices.at(0).driver_events, s.devices.at(0).driver_events);
    EXPECT_EQ(back->processes.at(0).gpu_utilization_percent, 45);
    EXPECT_EQ(back->processes.at(0).gpu_engine_utilization, s.processes.at(0).gpu_engine_utilization);
    EXPECT_EQ(back->processes.at(1).gpu_utilization_reason, s.processes.at(1).gpu_utilization_reason);
    EXPECT_EQ(back->untied_driver_gpus, s.untied_driver_gpus);
    const auto doc = nlohmann::json::parse(render_json(s));
    EXPECT_EQ(doc["devices"][0]["driver_events"][1]["xid"], "0x05000002");
    EXPECT_EQ(doc["devices"][0]["driver"]["engine_utilization_percent"]["COMP"], 97.0);
    EXPECT_TRUE(doc["devices"][1]["driver"].is_null());  // a GPU the driver says nothing of
    EXPECT_EQ(doc["processes"][0]["gpu_engine_utilization_percent"]["CMP"], 45.0);
}

TEST(JsonInput, DriverValuesOfTheWrongShapeAreRefusedOrUnknown) {
    const std::string base = R"({"schema_version": 1, "sampled_at": "2026-12-02T10:00:00Z", "host": {}, )"
                             R"("processes": [], "devices_stale": false, "processes_stale": false, "errors": [], )";
    const auto device = [&](const std::string& members) {
        return parse_json_snapshot(base + R"("devices": [{"index": 0, )" + members + "}]}");
    };
    EXPECT_EQ(device(R"("driver": 5)").error(), "invalid snapshot: driver is not an object");
    EXPECT_EQ(device(R"("driver": {"counters": {"HWR": -1}})").error(),
              "invalid snapshot: driver.counters.HWR is not a count");
    EXPECT_EQ(device(R"("driver_events": [{"id": 1}])").error(), "invalid snapshot: a driver event has no time");
    EXPECT_EQ(device(R"("driver_events": "x")").error(), "invalid snapshot: driver_events is not a list");
    EXPECT_EQ(device(R"("driver": )" + std::string(100000, '[') + std::string(100000, ']')).error(),
              "invalid snapshot: a driver value is nested too deep or holds too many values");
    // Another machine's nonsense percentages are unknown, never shown.
    const auto odd = device(R"("driver": {"utilization_percent": 250, "engine_utilization_percent": {"A": -3}})");
    ASSERT_TRUE(odd.ok()) << odd.error();
    EXPECT_FALSE(odd->devices.at(0).driver->overall_utilization_percent);
    EXPECT_FALSE(odd->devices.at(0).driver->engines.at(0).percent);
    EXPECT_TRUE(device(R"("driver": null, "driver_events": null)").ok());
}

// Every key a host, a device or a process row is written with, given an object or a
// list instead of its value: refused with a message naming the key, or (the nested
// driver keys) read as such; never a read outside the key tables (the fuzzer found
// one on a process's gpu_utilization_percent).
TEST(JsonInput, EveryKeyOfTheWrongShapeIsNamed) {
    const auto doc = nlohmann::json::parse(render_json(driver_snapshot()));
    std::size_t refused = 0;
    for (const auto* where : {"/host", "/devices/0", "/processes/0"}) {
        const nlohmann::json::json_pointer pointer(where);
        for (const auto& [key, value] : doc.at(pointer).items()) {
            for (const auto& wrong : {nlohmann::json::object(), nlohmann::json::array()}) {
                auto bent = doc;
                bent[pointer][key] = wrong;
                const auto parsed = parse_json_snapshot(bent.dump());
                if (parsed.ok()) continue;  // a nested key given its own shape
                ++refused;
                EXPECT_NE(parsed.error().find(key), std::string::npos) << where << "/" << key << ": " << parsed.error();
            }
        }
    }
    EXPECT_GT(refused, 2 * 40u);  // nearly every key, both shapes
}
