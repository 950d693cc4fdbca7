// The health rules, one finding at a time, and "memory held while idle" on a clock
// the test drives.
#include <gtest/gtest.h>

#include <chrono>

#include "musatop/model/health.hpp"

using namespace musatop;
using namespace std::chrono_literals;

namespace {

constexpr std::int64_t kGiB = std::int64_t{1} << 30;

Device healthy() {
    Device d;
    d.index = 0;
    d.uuid = "gpu-0";
    d.gpu_utilization_percent = 90;
    d.memory_used_bytes = 10 * kGiB;
    d.memory_total_bytes = 80 * kGiB;
    d.power_draw_w = 500;
    d.power_limit_w = 950;
    d.graphics_clock_mhz = 1600;
    d.graphics_clock_max_mhz = 1750;
    d.pcie_generation_current = 5;
    d.pcie_generation_max = 5;
    d.pcie_link_width_current = 16;
    d.pcie_link_width_max = 16;
    d.retired_pages_pending = false;
    return d;
}

std::vector<std::string> findings(const Device& d) { return device_findings(d, HealthThresholds{}); }

}  // namespace

TEST(Health, AHealthyBusyGpuHasNoFinding) { EXPECT_TRUE(findings(healthy()).empty()); }

TEST(Health, UnknownReadingsNeverMakeAFinding) {
    Device d;
    d.index = 0;
    EXPECT_TRUE(findings(d).empty());
    d.pcie_link_width_current = 4;  // max unknown
    d.power_draw_w = 2000;          // limit unknown
    d.graphics_clock_mhz = 100;     // max and utilisation unknown
    EXPECT_TRUE(findings(d).empty());
}

TEST(Health, NarrowLinkIsAlwaysAFinding) {
    Device d = healthy();
    d.pcie_link_width_current = 4;
    d.gpu_utilization_percent = 0;
    EXPECT_EQ(findings(d), std::vector<std::string>{"PCIe link x4, below its maximum x16"});
}

TEST(Health, SlowerLinkGenerationCountsOnlyWhileBusy) {
    Device d = healthy();
    d.pcie_generation_current = 3;
    EXPECT_EQ(findings(d), std::vector<std::string>{"PCIe gen 3 while 90% busy, below its maximum gen 5"});
    d.gpu_utilization_percent = 10;  // idle links may train down to save power
    EXPECT_TRUE(findings(d).empty());
}

TEST(Health, PowerAtTheLimit) {
    Device d = healthy();
    d.power_draw_w = 940;  // within 2% of 950
    EXPECT_EQ(findings(d), std::vector<std::string>{"power draw 940 W at its 950 W limit"});
    d.power_draw_w = 900;
    EXPECT_TRUE(findings(d).empty());
}

TEST(Health, ThrottlingIsInferredAndSaysSo) {
    Device d = healthy();
    d.graphics_clock_mhz = 600;
    d.gpu_utilization_percent = 95;
    ASSERT_EQ(findings(d).size(), 1u);
    EXPECT_EQ(findings(d)[0],
              "graphics clock 600 MHz, 34% of its 1750 MHz maximum while 95% busy (throttling, inferred: GMI gives "
              "no throttle reasons)");
    d.gpu_utilization_percent = 20;  // a low clock at low load is power management
    EXPECT_TRUE(findings(d).empty());
}

TEST(Health, RetiredPagesPending) {
    Device d = healthy();
    d.retired_pages_pending = true;
    EXPECT_EQ(findings(d), std::vector<std::string>{"retired pages pending: a GPU reset retires them"});
}

TEST(Health, LostCardIsAHostFinding) {
    Snapshot s;
    s.devices = {healthy()};
    s.attached_gpus = 8;
    EXPECT_EQ(host_findings(s),
              std::vector<std::string>{"GMI counts 8 attached GPUs but lists 1: 7 missing (a lost card?)"});
    s.attached_gpus = 1;
    EXPECT_TRUE(host_findings(s).empty());
}

TEST(Health, MemoryHeldWhileIdleNamesTheUsersAfterFiveMinutes) {
    Snapshot s;
    Device d = healthy();
    d.gpu_utilization_percent = 0;
    d.memory_used_bytes = 12 * kGiB;
    s.devices = {d};
    GpuProcess alice;
    alice.device_index = 0;
    alice.pid = 10;
    alice.username = "alice";
    GpuProcess unknown = alice;
    unknown.pid = 11;
    unknown.username.reset();
    s.processes = {alice, unknown};

    HealthMonitor monitor;
    const MonoTime t0{};
    monitor.assess(s, t0);
    EXPECT_TRUE(s.devices[0].health.empty());
    monitor.assess(s, t0 + 299s);
    EXPECT_TRUE(s.devices[0].health.empty());
    monitor.assess(s, t0 + 312s);
    EXPECT_EQ(s.devices[0].health,
              std::vector<std::string>{
                  "memory held while idle: 12.0 GiB in use at 0% utilisation for 5m 12s (PID 11, alice)"});

    // One busy round resets the clock.
    s.devices[0].gpu_utilization_percent = 3;
    monitor.assess(s, t0 + 320s);
    EXPECT_TRUE(s.devices[0].health.empty());
    s.devices[0].gpu_utilization_percent = 0;
    monitor.assess(s, t0 + 330s);
    EXPECT_TRUE(s.devices[0].health.empty());
    monitor.assess(s, t0 + 630s);
    EXPECT_EQ(s.devices[0].health.size(), 1u);
}

TEST(Health, StaleRoundsNeitherStartNorResetTheIdleClock) {
    Snapshot s;
    Device d = healthy();
    d.gpu_utilization_percent = 0;
    s.devices = {d};
    HealthMonitor monitor;
    const MonoTime t0{};
    monitor.assess(s, t0);
    s.devices_stale = true;
    s.devices[0].gpu_utilization_percent = 50;  // a stale copy says nothing new
    monitor.assess(s, t0 + 200s);
    EXPECT_TRUE(s.devices[0].health.empty());
    s.devices_stale = false;
    s.devices[0].gpu_utilization_percent = 0;
    monitor.assess(s, t0 + 301s);
    ASSERT_EQ(s.devices[0].health.size(), 1u);
    EXPECT_NE(s.devices[0].health[0].find("(no process listed)"), std::string::npos);
}

TEST(Health, SmallAllocationsOrUnknownUtilisationAreNotHeldMemory) {
    Snapshot s;
    Device d = healthy();
    d.gpu_utilization_percent = 0;
    d.memory_used_bytes = kGiB / 2;
    Device unknown = healthy();
    unknown.uuid = "gpu-1";
    unknown.index = 1;
    unknown.gpu_utilization_percent.reset();
    s.devices = {d, unknown};
    HealthMonitor monitor;
    monitor.assess(s, MonoTime{});
    monitor.assess(s, MonoTime{} + 3600s);
    EXPECT_TRUE(s.devices[0].health.empty());
    EXPECT_TRUE(s.devices[1].health.empty());
}

// The driver's own view: a status or firmware that is not OK is a finding with its
// reason; recovery and fault counters that rise while musatop watches say by how
// much and for how long (APM, power requests, is no fault); a cleared counter
// starts the watch again.
TEST(Health, DriverStatusAndCountersThatRiseWhileWatched) {
    Snapshot s;
    Device d = healthy();
    d.driver = DriverStatus{};
    d.driver->driver_status = "OK";
    d.driver->firmware_status = "NOT RESPONDING";
    d.driver->firmware_reason = "Poll failing";
    d.driver->counters = {{"Server Errors", 3}, {"HWR", 0}, {"APM", 10}};
    s.devices = {d};
    HealthMonitor monitor;
    const MonoTime t0{};
    monitor.assess(s, t0);
    EXPECT_EQ(s.devices[0].health, (std::vector<std::string>{"firmware NOT RESPONDING (Poll failing)"}));
    s.devices[0].driver->firmware_status = "OK";
    s.devices[0].driver->firmware_reason.reset();
    s.devices[0].driver->counters = {{"Server Errors", 3}, {"HWR", 2}, {"APM", 50}};
    monitor.assess(s, t0 + 125s);
    EXPECT_EQ(s.devices[0].health, (std::vector<std::string>{"driver counters rose while watched (2m 5s): HWR +2"}));
    s.devices[0].driver->counters = {{"Server Errors", 0}, {"HWR", 0}, {"APM", 0}};  // cleared
    monitor.assess(s, t0 + 130s);
    EXPECT_TRUE(s.devices[0].health.empty());
    s.devices[0].driver->counters = {{"Server Errors", 1}, {"HWR", 0}, {"APM", 0}};
    monitor.assess(s, t0 + 140s);
    EXPECT_EQ(s.devices[0].health,
              (std::vector<std::string>{"driver counters rose while watched (0m 10s): Server Errors +1"}));
}

// Warning and fatal driver events of the window are findings (with the XID's names,
// its age and the process); notices, old events and gen1 records without a severity
// are not.
TEST(Health, RecentWarningAndFatalDriverEventsAreFindings) {
    Snapshot s;
    s.sampled_at = WallTime(std::chrono::seconds(1800000000));
    Device d = healthy();
    const auto event = [](std::int64_t time, std::optional<EventSeverity> severity) {
        DriverEvent e;
        e.id = 0x02000005;
        e.module = "MSS";
        e.name = "NEW_PAGE_RETIRED";
        e.severity = severity;
        e.time_seconds = time;
        e.pid = 4242;
        e.text = "page 0x1f retired";
        return e;
    };
    d.driver_events = std::vector<musatop::DriverEvent>{
        event(1800000000 - 7200, EventSeverity::fatal), event(1800000000 - 65, EventSeverity::notify),
        event(1800000000 - 65, std::nullopt), event(1800000000 - 65, EventSeverity::warning)};
    s.devices = {d};
    HealthMonitor monitor;
    monitor.assess(s, MonoTime{});
    EXPECT_EQ(s.devices[0].health,
              (std::vector<std::string>{
                  "driver event 0x02000005 MSS NEW_PAGE_RETIRED, warning, 1m 5s ago (PID 4242): page 0x1f retired"}));
}
