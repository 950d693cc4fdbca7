// The /metrics text as a pure function of a frame: names, labels, units, omitted
// series for unknown values, staleness and escaping.
#include <gtest/gtest.h>

#include "snapshot_builder.hpp"
#include "musatop/serve/metrics.hpp"

using namespace musatop;
using namespace musatop::serve;

namespace {

Snapshot two_gpus() {
    return musatop::testing::SnapshotBuilder()
        .at(WallTime(std::chrono::seconds(1800000000)))
        .host("node-1")
        .with([](Snapshot& s) { s.driver_version = "3.3.8"; })
        .gpus(2,
              [](Device& d, int i) {
                  d.name = "MTT S5000";
                  d.gpu_utilization_percent = 64.6;
                  d.memory_used_bytes = 2048LL << 20;
                  d.memory_total_bytes = 81920LL << 20;
                  d.graphics_clock_mhz = 1500;
                  if (i == 0) d.temperature_c = 41;  // GPU 1: unknown temperature
              })
        .processes(1,
                   [](GpuProcess& p, int) {
                       p.device_index = 1;
                       p.pid = 4242;
                       p.device_uuid = "uuid-1";
                       p.username = "al\"ice";
                       p.command = "python \\train.py\x1b[2J";
                       p.gpu_memory_bytes = 1 << 30;
                   })
        .build();
}

std::string render(const Snapshot& s, ProcessMetrics processes = ProcessMetrics::off, double age_seconds = 0) {
    MetricsInput in;
    in.snapshot = &s;
    in.counts = {10, 2, 1};
    in.interval = Seconds(1);
    in.now = s.sampled_at + std::chrono::milliseconds(static_cast<long>(age_seconds * 1000));
    in.processes = processes;
    return render_metrics(in);
}

bool has_line(const std::string& text, const std::string& line) {
    return text.find("\n" + line + "\n") != std::string::npos || text.rfind(line + "\n", 0) == 0;
}

}  // namespace

TEST(ServeMetrics, ValuesInBaseUnitsWithGpuAndUuidLabels) {
    const std::string m = render(two_gpus());
    EXPECT_TRUE(has_line(m, "musatop_gpu_utilization_ratio{gpu=\"0\",uuid=\"uuid-0\"} 0.646")) << m;
    EXPECT_TRUE(has_line(m, "musatop_gpu_memory_used_bytes{gpu=\"1\",uuid=\"uuid-1\"} 2147483648"));
    EXPECT_TRUE(has_line(m, "musatop_gpu_memory_total_bytes{gpu=\"0\",uuid=\"uuid-0\"} 85899345920"));
    EXPECT_TRUE(has_line(m, "musatop_gpu_graphics_clock_hertz{gpu=\"0\",uuid=\"uuid-0\"} 1500000000"));
    EXPECT_TRUE(has_line(m, "musatop_gpu_processes{gpu=\"0\",uuid=\"uuid-0\"} 0"));  // idle: an explicit 0
    EXPECT_TRUE(has_line(m, "musatop_gpu_processes{gpu=\"1\",uuid=\"uuid-1\"} 1"));
    EXPECT_TRUE(has_line(m, "musatop_gpu_info{gpu=\"0\",uuid=\"uuid-0\",name=\"MTT S5000\",bus_id=\"\"} 1"));
    EXPECT_TRUE(has_line(m,
                         "musatop_host_info{hostname=\"node-1\",driver_version=\"3.3.8\",gmi_version=\"\","
                         "musa_version=\"\"} 1"));
    EXPECT_TRUE(has_line(m, "musatop_collect_errors_total{source=\"devices\"} 2"));
    EXPECT_TRUE(has_line(m, "musatop_collect_timestamp_seconds{source=\"devices\"} 1800000000"));
    EXPECT_TRUE(has_line(m, "# TYPE musatop_collect_errors_total counter"));
    EXPECT_NE(m.find("Cached: from the sampler's last round."), std::string::npos);
}

TEST(ServeMetrics, UnknownValuesAreOmittedNeverZero) {
    const std::string m = render(two_gpus());
    EXPECT_TRUE(has_line(m, "musatop_gpu_temperature_celsius{gpu=\"0\",uuid=\"uuid-0\"} 41"));
    EXPECT_EQ(m.find("musatop_gpu_temperature_celsius{gpu=\"1\""), std::string::npos);
    EXPECT_EQ(m.find("musatop_gpu_power_watts"), std::string::npos);    // no GPU reports power: no family at all
    EXPECT_EQ(m.find("collect_duration_seconds{"), std::string::npos);  // not measured in this frame
}

TEST(ServeMetrics, BeforeTheFirstRoundOnlyBuildAndCollectFamilies) {
    MetricsInput in;
    const std::string m = render_metrics(in);
    EXPECT_TRUE(has_line(m, "musatop_collect_success{source=\"devices\"} 0"));
    EXPECT_EQ(m.find("musatop_collect_timestamp_seconds{"), std::string::npos);
    EXPECT_EQ(m.find("musatop_gpu_"), std::string::npos);
    EXPECT_NE(m.find("musatop_build_info{version="), std::string::npos);
}

TEST(ServeMetrics, StaleDevicesDropValueSeriesAfterThreeIntervals) {
    Snapshot s = two_gpus();
    s.devices_stale = true;
    s.errors = {"devices: GMI command timed out"};
    const std::string fresh = render(s, ProcessMetrics::off, 2.5);
    EXPECT_TRUE(has_line(fresh, "musatop_collect_success{source=\"devices\"} 0"));
    EXPECT_NE(fresh.find("musatop_gpu_utilization_ratio{"), std::string::npos);  // within 3 intervals: cached values
    const std::string old = render(s, ProcessMetrics::off, 3.5);
    EXPECT_EQ(old.find("musatop_gpu_utilization_ratio{"), std::string::npos);
    EXPECT_EQ(old.find("musatop_gpu_memory_used_bytes{"), std::string::npos);
    EXPECT_NE(old.find("musatop_gpu_info{"), std::string::npos);  // identity stays
    EXPECT_TRUE(has_line(old, "musatop_collect_timestamp_seconds{source=\"devices\"} 1800000000"));
}

TEST(ServeMetrics, StaleProcessesDropTheProcessCounts) {
    Snapshot s = two_gpus();
    s.processes_stale = true;
    const std::string m = render(s, ProcessMetrics::with_command);
    EXPECT_EQ(m.find("musatop_gpu_processes{"), std::string::npos);
    EXPECT_EQ(m.find("musatop_process_"), std::string::npos);
}

TEST(ServeMetrics, ProcessSeriesOnlyWhenAskedAndEscaped) {
    const Snapshot s = two_gpus();
    EXPECT_EQ(render(s).find("musatop_process_"), std::string::npos);
    const std::string memory = render(s, ProcessMetrics::memory);
    EXPECT_TRUE(has_line(memory,
                         "musatop_process_gpu_memory_bytes{gpu=\"1\",uuid=\"uuid-1\",pid=\"4242\","
                         "user=\"al\\\"ice\"} 1073741824"))
        << memory;
    EXPECT_EQ(memory.find("musatop_process_info"), std::string::npos);
    const std::string command = render(s, ProcessMetrics::with_command);
    EXPECT_NE(command.find("command=\"python \\\\train.py [2J\"} 1"), std::string::npos) << command;
    EXPECT_EQ(command.find('\x1b'), std::string::npos);
}

TEST(ServeMetrics, LabelValuesAreSanitisedAndEscaped) {
    EXPECT_EQ(label_value("a\\b\"c"), "a\\\\b\\\"c");
    EXPECT_EQ(label_value("line\nbreak\x07"), "line break ");
    EXPECT_EQ(label_value("\xff"), "\xef\xbf\xbd");  // invalid UTF-8 becomes U+FFFD
}

TEST(ServeMetrics, CommandsAreCutTo64Cells) {
    Snapshot s = two_gpus();
    s.processes[0].command = std::string(200, 'x');
    const std::string m = render(s, ProcessMetrics::with_command);
    EXPECT_NE(m.find("command=\"" + std::string(64, 'x') + "\""), std::string::npos);
    EXPECT_EQ(m.find(std::string(65, 'x')), std::string::npos);
}

TEST(ServeMetrics, HealthLinkFanAndEngineGauges) {
    Snapshot s = two_gpus();
    Device& d = s.devices[1];
    d.pcie_generation_current = 3;
    d.pcie_generation_max = 5;
    d.pcie_link_width_current = 4;
    d.pcie_link_width_max = 16;
    d.fan_speed_percent = 64;
    d.encoder_utilization_percent = 7;
    d.graphics_clock_max_mhz = 1750;
    d.retired_pages_single_bit = 14;
    d.retired_pages_pending = true;
    d.health = {"PCIe link x4, below its maximum x16", "retired pages pending: a GPU reset retires them"};
    s.health = {"GMI counts 3 attached GPUs but lists 2: 1 missing (a lost card?)"};
    s.processes[0].attribution.slurm_job_id = 77;
    const std::string m = render(s, ProcessMetrics::with_command);
    const std::string gpu1 = "{gpu=\"1\",uuid=\"uuid-1\"} ";
    EXPECT_TRUE(has_line(m, "musatop_gpu_pcie_link_generation" + gpu1 + "3")) << m;
    EXPECT_TRUE(has_line(m, "musatop_gpu_pcie_link_generation_max" + gpu1 + "5"));
    EXPECT_TRUE(has_line(m, "musatop_gpu_pcie_link_width" + gpu1 + "4"));
    EXPECT_TRUE(has_line(m, "musatop_gpu_pcie_link_width_max" + gpu1 + "16"));
    EXPECT_TRUE(has_line(m, "musatop_gpu_fan_speed_ratio" + gpu1 + "0.64"));
    EXPECT_TRUE(has_line(m, "musatop_gpu_encoder_utilization_ratio" + gpu1 + "0.07"));
    EXPECT_TRUE(has_line(m, "musatop_gpu_graphics_clock_max_hertz" + gpu1 + "1750000000"));
    EXPECT_TRUE(has_line(m, "musatop_gpu_retired_pages_single_bit" + gpu1 + "14"));
    EXPECT_TRUE(has_line(m, "musatop_gpu_retired_pages_pending" + gpu1 + "1"));
    EXPECT_TRUE(has_line(m, "musatop_gpu_health_findings" + gpu1 + "2"));
    EXPECT_TRUE(has_line(m, "musatop_gpu_health_findings{gpu=\"0\",uuid=\"uuid-0\"} 0"));  // rules ran: none
    EXPECT_TRUE(has_line(m, "musatop_host_health_findings 1"));
    // GPU 0 reports no link, fan or encoder: those series are omitted, never 0.
    EXPECT_EQ(m.find("musatop_gpu_pcie_link_width{gpu=\"0\""), std::string::npos);
    EXPECT_EQ(m.find("musatop_gpu_fan_speed_ratio{gpu=\"0\""), std::string::npos);
    EXPECT_EQ(m.find("musatop_gpu_decoder_utilization_ratio"), std::string::npos);
    EXPECT_NE(m.find("slurm_job=\"77\",command="), std::string::npos);
}
