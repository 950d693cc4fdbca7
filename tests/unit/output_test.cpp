#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "musatop/output/json_output.hpp"
#include "musatop/output/text_output.hpp"
#include "snapshot_builder.hpp"

using namespace musatop;

namespace {

Snapshot sample_snapshot() {
    Device d;
    d.index = 0;
    d.uuid = "fixture-gpu-0";
    d.name = "X10000";
    d.gpu_utilization_percent = 42.0;
    d.memory_used_bytes = 1LL << 30;
    d.memory_total_bytes = 80LL << 30;
    d.temperature_c = 34.0;
    d.power_draw_w = 367.49;
    d.power_limit_w = 950.0;
    Device unknown;
    unknown.index = 3;
    unknown.name = "X10000";
    unknown.memory_total_bytes = 80LL << 30;
    unknown.power_limit_reason = "Current power limit is not reported by GMI";
    GpuProcess p;
    p.device_index = 0;
    p.pid = 1788;
    p.device_uuid = "fixture-gpu-0";
    p.gpu_memory_bytes = 111LL << 20;
    p.username = "root";
    p.command = "sleep 300\x1b[2J";
    p.rss_bytes = 1802240;
    p.create_time = 1796220311.89;
    p.running_seconds = 0.9399926662445068;
    p.status = ProcessStatus::ok;
    return musatop::testing::SnapshotBuilder()
        .at(WallTime(std::chrono::seconds(1796220311)))
        .host("vm", std::nullopt, 100LL << 20, 24LL << 30)
        .devices({d, unknown})
        .rows({p})
        .stale(false, true)
        .with([](Snapshot& s) {
            s.processes_sampled_at.reset();  // the process sample timed out
            s.driver_version = "3.3.8-server";
            s.gmi_version = "2.3.3";
            s.musa_version_reason = "No MUSA Toolkit installation found";
            s.errors = {"processes: GMI command timed out: mthreads-gmi"};
        })
        .build();
}

}  // namespace

TEST(JsonOutput, KeysOrderTypesAndNulls) {
    const std::string text = render_json(sample_snapshot());
    ASSERT_EQ(text.back(), '\n');
    const auto doc = nlohmann::ordered_json::parse(text);
    std::vector<std::string> keys;
    for (const auto& item : doc.items()) keys.push_back(item.key());
    EXPECT_EQ(keys, (std::vector<std::string>{"schema_version",
                                              "sampled_at",
                                              "devices_sampled_at",
                                              "processes_sampled_at",
                                              "driver_version",
                                              "gmi_version",
                                              "musa_version",
                                              "musa_version_source",
                                              "musa_version_reason",
                                              "host",
                                              "devices",
                                              "processes",
                                              "devices_stale",
                                              "processes_stale",
                                              "errors",
                                              "device_source",
                                              "device_source_reason",
                                              "processes_unverified_reason",
                                              "health",
                                              "untied_driver_gpus"}));
    EXPECT_EQ(doc["schema_version"], 1);
    EXPECT_EQ(doc["sampled_at"], "2026-12-02T14:05:11.000000+00:00");
    EXPECT_TRUE(doc["processes_sampled_at"].is_null());
    EXPECT_TRUE(doc["host"]["cpu_percent"].is_null());
    EXPECT_TRUE(doc["devices"][0]["index"].is_number_integer());
    EXPECT_TRUE(doc["devices"][0]["memory_used_bytes"].is_number_integer());
    EXPECT_TRUE(doc["devices"][1]["memory_used_bytes"].is_null());
    EXPECT_EQ(doc["devices"][1]["power_limit_reason"], "Current power limit is not reported by GMI");
    EXPECT_EQ(doc["processes"][0]["status"], "ok");
    EXPECT_EQ(doc["processes"][0]["command"], "sleep 300\x1b[2J");  // JSON escapes, never sanitises
    EXPECT_NE(text.find("\"gpu_utilization_percent\": 42.0,"), std::string::npos);
    EXPECT_NE(text.find("\"power_draw_w\": 367.49,"), std::string::npos);
    EXPECT_NE(text.find("\"create_time\": 1796220311.89,"), std::string::npos);
    EXPECT_NE(text.find("\"running_seconds\": 0.9399926662445068,"), std::string::npos);
    EXPECT_NE(text.find("\"command\": \"sleep 300\\u001b[2J\""), std::string::npos);
    EXPECT_NE(text.find("\n  \"host\": {\n    \"hostname\": \"vm\","), std::string::npos);
}

TEST(JsonOutput, AlwaysAsciiAndValidForAnyBytes) {
    Snapshot s;
    s.host.hostname = std::string("h\xff\xfe\xe2\x80\xae训练\xf0\x9f\x98\x80") + std::string(1, '\0');
    const std::string text = render_json(s);
    for (unsigned char c : text) EXPECT_LT(c, 0x80);
    const auto doc = nlohmann::json::parse(text);
    EXPECT_NE(doc["host"]["hostname"].get<std::string>().find("训练"), std::string::npos);
    EXPECT_NE(text.find("\\ud83d\\ude00"), std::string::npos);  // astral: surrogate pair
    EXPECT_TRUE(doc["devices"].is_array());
    EXPECT_TRUE(doc["device_source"].is_null());
}

TEST(TextOutput, LinesMatchTheReferenceLayout) {
    const std::string text = render_text(sample_snapshot());
    const std::string expected =
        "musatop | 2026-12-02T14:05:11.000000+00:00\n"
        "Driver: 3.3.8-server  GMI: 2.3.3  MUSA Toolkit: N/A\n"
        "Host: vm CPU: N/A RAM: 100MiB/24.0GiB\n"
        "GPU  NAME                 UTIL   MEMORY (used/total)      TEMP   POWER/LIMIT\n"
        "0    X10000                 42%    1.0GiB/80.0GiB     34C  367W/950W\n"
        "3    X10000                 N/A       N/A/80.0GiB     N/A  N/A/N/A\n"
        "GPU  PID      USER          GPU MEM    CPU%    RSS       TIME       COMMAND\n"
        "0    1788     root            111MiB    N/A      2MiB   00:00:00  sleep 300 [2J\n"
        "STALE: devices=False, processes=True; last successful samples: 2026-12-02T14:05:11.000000+00:00, None\n"
        "NOTE: stale data: the GPU readings are current; the process rows could not be read.\n"
        "NOTE: MUSA Toolkit: No MUSA Toolkit installation found\n"
        "NOTE: GPU 3 power limit unavailable from GMI; power draw is a separate reading. See power_limit_reason in "
        "--json.\n"
        "ERROR: processes: GMI command timed out: mthreads-gmi\n";
    EXPECT_EQ(text, expected);
}

TEST(TextOutput, EmptyAndUnavailableMessages) {
    Snapshot s;
    std::string text = render_text(s);
    EXPECT_NE(text.find("\nNo GPUs found.\n"), std::string::npos);
    EXPECT_NE(text.find("\nNo matching GPU processes.\n"), std::string::npos);
    s.devices_stale = s.processes_stale = true;
    text = render_text(s);
    EXPECT_NE(text.find("\nDevice data unavailable.\n"), std::string::npos);
    EXPECT_NE(text.find("\nProcess data unavailable.\n"), std::string::npos);
    EXPECT_NE(text.find("STALE: devices=True, processes=True; last successful samples: None, None"), std::string::npos);
    EXPECT_NE(text.find("NOTE: stale data: the GPU readings could not be read; the process rows could not be read."),
              std::string::npos);
    s.devices_sampled_at = WallTime(std::chrono::seconds(1796220311));
    EXPECT_NE(render_text(s).find("the GPU readings are the last good ones, from 2026-12-02T14:05:11.000000+00:00;"),
              std::string::npos);
}

TEST(TextOutput, EveryExternalFieldIsSanitised) {
    Snapshot s = sample_snapshot();
    s.host.hostname = "evil\x1b]0;title\x07";
    s.driver_version = "d\nx";
    s.devices[0].name = "n\x1b[31m";
    s.processes[0].username = "u\r";
    s.errors.push_back("devices: \x1b[2Jboom\nERROR: fake");
    const std::string text = render_text(s);
    EXPECT_EQ(text.find('\x1b'), std::string::npos);
    EXPECT_EQ(text.find('\r'), std::string::npos);
    EXPECT_EQ(text.find('\x07'), std::string::npos);
    EXPECT_NE(text.find("ERROR: devices:  [2Jboom ERROR: fake\n"), std::string::npos);
}

namespace {

std::string without_sgr(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
            i = text.find('m', i);
            continue;
        }
        out += text[i];
    }
    return out;
}

}  // namespace

// On a terminal --once is coloured as gpustat's lines are; the characters are
// exactly the plain output's, so widths and scripts reading a pipe see no change.
TEST(TextOutput, PaintColoursFieldsWithoutChangingTheText) {
    const Snapshot s = sample_snapshot();
    const std::string plain = render_text(s);
    const std::string coloured = render_text(s, Paint{true});
    EXPECT_EQ(plain.find('\x1b'), std::string::npos);
    EXPECT_NE(coloured.find("\x1b[36m0   \x1b[0m"), std::string::npos) << coloured;  // the GPU index, padded, cyan
    EXPECT_NE(coloured.find("\x1b[1;31mERROR: "), std::string::npos);
    EXPECT_EQ(without_sgr(coloured), plain);
    EXPECT_EQ(Paint{}(Ink::error, "x"), "x");
}
