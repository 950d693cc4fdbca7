#include <gtest/gtest.h>

#include "musatop/collection/gmi/summary_table.hpp"
#include "test_support.hpp"

using namespace musatop;
using namespace musatop::gmi;
using musatop::testing::fixture;

TEST(SummaryTable, NarrowLayoutDevice) {
    const auto devices = parse_summary_devices(fixture("002-s80-table-procs-gmi2.0.0-drv3.0.0.txt"));
    ASSERT_TRUE(devices.ok()) << devices.error();
    ASSERT_EQ(devices->size(), 1u);
    const Device& d = devices->front();
    EXPECT_EQ(d.index, 0);
    EXPECT_EQ(d.name, "MTT S80");
    EXPECT_EQ(d.bus_id, "00000000:01:00.0");
    EXPECT_EQ(d.gpu_utilization_percent, 0.0);
    EXPECT_EQ(d.memory_used_bytes, 662LL << 20);
    EXPECT_EQ(d.memory_total_bytes, 16384LL << 20);
    EXPECT_EQ(d.temperature_c, 41.0);
    EXPECT_FALSE(d.uuid);
    EXPECT_FALSE(d.power_draw_w);
    EXPECT_TRUE(d.power_limit_reason);
}

TEST(SummaryTable, WideLayoutEightGpus) {
    const auto devices = parse_summary_devices(fixture("003-s5000x8-table-noprocs-gmi2.4.1-drv5.1.0.txt"));
    ASSERT_TRUE(devices.ok()) << devices.error();
    ASSERT_EQ(devices->size(), 8u);
    EXPECT_EQ((*devices)[7].index, 7);
    EXPECT_EQ((*devices)[7].name, "MTT S5000");
    EXPECT_EQ((*devices)[7].bus_id, "00000000:da:00.0");
    EXPECT_EQ((*devices)[7].temperature_c, 49.0);
    EXPECT_EQ((*devices)[5].temperature_c, 50.0);
    EXPECT_EQ((*devices)[0].memory_total_bytes, 81920LL << 20);
}

TEST(SummaryTable, BusyGpuAndNamesWithSpaces) {
    auto devices = parse_summary_devices(fixture("012-s80-table-procs-truncname-gmi1.14.0-drv2.7.0.txt"));
    ASSERT_TRUE(devices.ok());
    EXPECT_EQ(devices->front().gpu_utilization_percent, 98.0);
    EXPECT_EQ(devices->front().memory_used_bytes, 1339LL << 20);
    std::string guest = fixture("002-s80-table-procs-gmi2.0.0-drv3.0.0.txt");
    guest.replace(guest.find("MTT S80        "), 15, "MTT S3000 Mt v1");
    devices = parse_summary_devices(guest);
    ASSERT_TRUE(devices.ok());
    EXPECT_EQ(devices->front().name, "MTT S3000 Mt v1");
}

TEST(SummaryTable, UsedAboveTotalIsKept) {
    std::string text = fixture("002-s80-table-procs-gmi2.0.0-drv3.0.0.txt");
    text.replace(text.find("662MiB(16384MiB)"), 16, "44302MiB(32768MiB)");
    const auto devices = parse_summary_devices(text);
    ASSERT_TRUE(devices.ok());
    EXPECT_EQ(devices->front().memory_used_bytes, 44302LL << 20);
    EXPECT_FALSE(devices->front().memory_free_bytes);
}

TEST(SummaryTable, MissingOrBrokenTableIsAnError) {
    EXPECT_FALSE(parse_summary_devices("").ok());
    EXPECT_FALSE(parse_summary_devices(fixture("gmi_processes.txt")).ok());
    std::string text = fixture("002-s80-table-procs-gmi2.0.0-drv3.0.0.txt");
    EXPECT_FALSE(parse_summary_devices(text.substr(0, text.find("     Physical"))).ok());
    text.replace(text.find("0    MTT S80        |"), 20, "garbage without bars");
    EXPECT_FALSE(parse_summary_devices(text).ok());
}

TEST(SummaryTable, BannerVersions) {
    auto versions = parse_banner_versions(fixture("003-s5000x8-table-noprocs-gmi2.4.1-drv5.1.0.txt"));
    EXPECT_EQ(versions.gmi_version, "2.4.1");
    EXPECT_EQ(versions.driver_version, "5.1.0-server");
    versions = parse_banner_versions(fixture("gmi_processes.txt"));
    EXPECT_EQ(versions.gmi_version, "2.3.3");
    EXPECT_EQ(versions.driver_version, "3.3.8-server");
    versions = parse_banner_versions("    mthreads-gmi:2.3.3           Driver Version:N/A\n");
    EXPECT_EQ(versions.gmi_version, "2.3.3");
    EXPECT_FALSE(versions.driver_version);
    EXPECT_FALSE(parse_banner_versions("nothing here").gmi_version);
}

TEST(SummaryTable, VersionOutput) {
    EXPECT_EQ(parse_version_output("mthreads-gmi version : 2.3.3\n"), "2.3.3");
    EXPECT_EQ(parse_version_output("MTHREADS-GMI 2.3.3"), "2.3.3");
    EXPECT_EQ(parse_version_output("mthreads-gmi:2.4.1"), "2.4.1");
    EXPECT_EQ(parse_version_output("blah\nmthreads-gmi version: 1.14.0-rc1 (build x)\n"), "1.14.0-rc1");
    EXPECT_FALSE(parse_version_output("mthreads-gmi version : unknown"));
    EXPECT_FALSE(parse_version_output(""));
}

TEST(SummaryTable, LanesPerfAndEccFromTheRealTables) {
    const auto narrow = parse_summary_devices(fixture("002-s80-table-procs-gmi2.0.0-drv3.0.0.txt"));
    ASSERT_TRUE(narrow.ok()) << narrow.error();
    EXPECT_EQ(narrow->front().pcie_link_width_current, 16);
    EXPECT_EQ(narrow->front().pcie_link_width_max, 16);
    EXPECT_FALSE(narrow->front().performance_state);  // the narrow layout has no Perf column
    EXPECT_FALSE(narrow->front().ecc_mode);           // "N/A"
    const auto wide = parse_summary_devices(fixture("003-s5000x8-table-noprocs-gmi2.4.1-drv5.1.0.txt"));
    ASSERT_TRUE(wide.ok()) << wide.error();
    EXPECT_EQ((*wide)[3].performance_state, "P0");
    EXPECT_EQ((*wide)[3].ecc_mode, "On-die, EDC");

    // The same real table with the x4 link seen on a misseated card.
    std::string narrowed = fixture("002-s80-table-procs-gmi2.0.0-drv3.0.0.txt");
    narrowed.replace(narrowed.find("16x(16x)  "), 10, "4x(16x)   ");
    const auto x4 = parse_summary_devices(narrowed);
    ASSERT_TRUE(x4.ok()) << x4.error();
    EXPECT_EQ(x4->front().pcie_link_width_current, 4);
    EXPECT_EQ(x4->front().pcie_link_width_max, 16);
    EXPECT_EQ(x4->front().temperature_c, 41.0);
}
