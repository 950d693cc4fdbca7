// The staleness model and command handling, driven through the fake mthreads-gmi.
#include <gtest/gtest.h>
#include <stdlib.h>

#include "musatop/collection/gmi/gmi_source.hpp"
#include "fake_gmi_data.hpp"
#include "test_support.hpp"

using namespace musatop;
using namespace musatop::gmi;
using musatop::testing::fixture;
using musatop::testing::read_text;
using musatop::testing::TempDir;
using musatop::testing::write_text;
using namespace std::chrono_literals;

namespace {

class GmiSourceTest : public ::testing::Test {
protected:
    TempDir dir;
    GmiSource source{settings()};

    void SetUp() override {
        ::setenv("FAKE_GMI_DIR", dir.path().c_str(), 1);
        write_text(dir / "query.out", fixture("gmi_query.json"));
        write_text(dir / "summary.out", fixture("gmi_processes.txt"));
        write_text(dir / "version.out", "mthreads-gmi version : 2.3.3\n");
    }
    GmiSettings settings() const {
        GmiSettings s;
        s.executable = MUSATOP_FAKE_GMI;
        s.timeout = 2000ms;
        return s;
    }
    Snapshot sample() {
        Snapshot snapshot;
        snapshot.sampled_at = std::chrono::system_clock::now();
        source.sample(snapshot, -1);
        return snapshot;
    }
    void fail(const std::string& kind, int code, const std::string& message) {
        write_text(dir / (kind + ".rc"), std::to_string(code));
        write_text(dir / (kind + ".err"), message);
    }
    void heal(const std::string& kind) {
        std::filesystem::remove(dir / (kind + ".rc"));
        std::filesystem::remove(dir / (kind + ".err"));
    }
    int calls(const std::string& kind) const {
        const std::string log = read_text(dir / "calls.log");
        int n = 0;
        for (std::size_t pos = 0; (pos = log.find(kind + " ", pos)) != std::string::npos; ++pos)
            if (pos == 0 || log[pos - 1] == '\n') ++n;
        return n;
    }
};

}  // namespace

TEST_F(GmiSourceTest, FixtureRoundMapsUuidsAndVersions) {
    const Snapshot s = sample();
    EXPECT_TRUE(s.errors.empty());
    EXPECT_FALSE(s.any_stale());
    EXPECT_EQ(s.gmi_version, "2.3.3");
    EXPECT_EQ(s.driver_version, "3.3.8-server");
    EXPECT_EQ(s.device_source, DeviceSource::gmi_json);
    ASSERT_EQ(s.processes.size(), 3u);
    EXPECT_EQ(s.processes[1].device_uuid, "fixture-gpu-3");
    EXPECT_EQ(s.devices_sampled_at, s.sampled_at);
}

TEST_F(GmiSourceTest, BannerVersionSparesTheVersionCall) {
    sample();
    sample();
    EXPECT_EQ(calls("version"), 0);  // the summary banner says "mthreads-gmi 2.3.3"
    EXPECT_EQ(calls("query"), 2);
    EXPECT_EQ(calls("summary"), 2);
}

TEST_F(GmiSourceTest, VersionRunsOnceWhenTheBannerLacksIt) {
    std::string table = fixture("gmi_processes.txt");
    const auto at = table.find("mthreads-gmi 2.3.3");
    ASSERT_NE(at, std::string::npos);
    table.replace(at, 18, std::string(18, ' '));  // a banner without the tool's version
    write_text(dir / "summary.out", table);
    const Snapshot first = sample();
    sample();
    EXPECT_EQ(first.gmi_version, "2.3.3");  // from -v
    EXPECT_EQ(calls("version"), 1);
    EXPECT_EQ(calls("query"), 2);
    EXPECT_EQ(calls("summary"), 2);
}

TEST_F(GmiSourceTest, FailedVersionIsNotAnError) {
    fail("version", 1, "no");
    write_text(dir / "summary.out", fixture("gmi_x10000_process.txt"));
    const Snapshot s = sample();
    EXPECT_TRUE(s.errors.empty());
    EXPECT_FALSE(s.gmi_version);
}

TEST_F(GmiSourceTest, DeviceFailureKeepsOldDevicesWhileProcessesRefresh) {
    const Snapshot first = sample();
    fail("query", 4, "driver failure");
    write_text(dir / "summary.out", fixture("gmi_empty.txt"));  // no device table to fall back on
    const Snapshot second = sample();
    EXPECT_TRUE(second.devices_stale);
    EXPECT_FALSE(second.processes_stale);
    ASSERT_EQ(second.errors.size(), 1u);
    EXPECT_EQ(second.errors[0], "devices: GMI exited with code 4: driver failure");
    EXPECT_EQ(second.devices, first.devices);
    EXPECT_EQ(second.devices_sampled_at, first.devices_sampled_at);
    EXPECT_TRUE(second.processes.empty());
    EXPECT_EQ(second.processes_sampled_at, second.sampled_at);
}

TEST_F(GmiSourceTest, ProcessFailureKeepsOldRowsAndTime) {
    const Snapshot first = sample();
    write_text(dir / "summary.out", "garbage");
    const Snapshot second = sample();
    EXPECT_TRUE(second.processes_stale);
    EXPECT_FALSE(second.devices_stale);
    EXPECT_EQ(second.errors, std::vector<std::string>{"processes: GMI process table is missing"});
    EXPECT_EQ(second.processes, first.processes);
    EXPECT_EQ(second.processes_sampled_at, first.processes_sampled_at);
    std::filesystem::remove(dir / "summary.out");
    write_text(dir / "summary.out", fixture("gmi_processes.txt"));
    EXPECT_FALSE(sample().processes_stale);
}

TEST_F(GmiSourceTest, RowsForAnAbsentGpuFailTheProcessSource) {
    write_text(dir / "query.out", R"({"GPU":[]})");
    const Snapshot s = sample();
    EXPECT_FALSE(s.devices_stale);
    EXPECT_TRUE(s.processes_stale);
    ASSERT_EQ(s.errors.size(), 1u);
    EXPECT_NE(s.errors[0].find("absent from the current device query"), std::string::npos);
    EXPECT_FALSE(s.processes_sampled_at);
    EXPECT_TRUE(s.processes.empty());
}

TEST_F(GmiSourceTest, RowsAfterAFailedDeviceQueryHaveNoUuid) {
    fail("query", 9, "Failed to initialize MTML: Driver Not Loaded");
    const Snapshot s = sample();
    EXPECT_TRUE(s.devices_stale);
    EXPECT_FALSE(s.devices_sampled_at);
    ASSERT_EQ(s.processes.size(), 3u);
    for (const auto& p : s.processes) EXPECT_FALSE(p.device_uuid);
}

TEST_F(GmiSourceTest, ExitedZeroWithAnErrorLineOrNothing) {
    write_text(dir / "query.out", "Error: No MT GPU device found.\n");
    write_text(dir / "summary.out", "");
    const Snapshot s = sample();
    ASSERT_EQ(s.errors.size(), 2u);
    EXPECT_EQ(s.errors[0], "devices: GMI reported an error: Error: No MT GPU device found.");
    EXPECT_EQ(s.errors[1], "processes: GMI printed no output: " + std::string(MUSATOP_FAKE_GMI));
}

TEST_F(GmiSourceTest, SummaryTableIsTheFallbackDeviceSource) {
    write_text(dir / "query.out", "{broken");
    write_text(dir / "summary.out", fixture("002-s80-table-procs-gmi2.0.0-drv3.0.0.txt"));
    fail("version", 2, "unknown option");
    const Snapshot s = sample();
    EXPECT_TRUE(s.errors.empty());
    EXPECT_FALSE(s.devices_stale);
    EXPECT_EQ(s.device_source, DeviceSource::gmi_summary);
    ASSERT_TRUE(s.device_source_reason);
    EXPECT_NE(s.device_source_reason->find("invalid GMI JSON"), std::string::npos);
    ASSERT_EQ(s.devices.size(), 1u);
    EXPECT_EQ(s.devices[0].name, "MTT S80");
    EXPECT_EQ(s.gmi_version, "2.0.0");
    EXPECT_EQ(s.driver_version, "3.0.0");
    EXPECT_EQ(s.processes.size(), 2u);
}

TEST_F(GmiSourceTest, CommandLevelFailuresGiveTwoErrors) {
    GmiSettings missing = settings();
    missing.executable = "mthreads-gmi-does-not-exist";
    GmiSource absent(missing);
    Snapshot s;
    absent.sample(s, -1);
    EXPECT_EQ(s.errors, (std::vector<std::string>{"devices: GMI executable not found: mthreads-gmi-does-not-exist",
                                                  "processes: GMI executable not found: mthreads-gmi-does-not-exist"}));
    EXPECT_TRUE(s.devices_stale && s.processes_stale);
    EXPECT_FALSE(s.devices_sampled_at || s.processes_sampled_at);
}

TEST_F(GmiSourceTest, TimeoutNamesTheCommand) {
    write_text(dir / "query.hang", "");
    GmiSettings quick = settings();
    quick.timeout = 300ms;
    GmiSource source_with_timeout(quick);
    Snapshot s;
    source_with_timeout.sample(s, -1);
    ASSERT_EQ(s.errors.size(), 1u);
    EXPECT_EQ(s.errors[0], "devices: GMI command timed out: " + std::string(MUSATOP_FAKE_GMI) + " -q --json");
}

TEST(DescribeExitFailure, DetailPrefersStderrAndIsCut) {
    EXPECT_EQ(describe_exit_failure(9, "out", ""), "GMI exited with code 9: out");
    EXPECT_EQ(describe_exit_failure(9, "out", " err\nline2 \n"), "GMI exited with code 9: err line2");
    EXPECT_EQ(describe_exit_failure(1, "", ""), "GMI exited with code 1");
    EXPECT_EQ(describe_exit_failure(1, std::string(1000, 'x'), "").size(),
              std::string("GMI exited with code 1: ").size() + 300);
}

TEST_F(GmiSourceTest, MoreGpusThanTheCapIsAClearFailure) {
    write_text(dir / "query.out", musatop::testing::gmi_device_json(static_cast<int>(kMaxDevices) + 1));
    write_text(dir / "summary.out", "");  // no table to fall back on
    const Snapshot s = sample();
    EXPECT_TRUE(s.devices_stale);
    EXPECT_TRUE(s.devices.empty());
    ASSERT_FALSE(s.errors.empty());
    EXPECT_EQ(s.errors[0], "devices: GMI listed 1025 GPUs, more than musatop handles (1024)");
}
