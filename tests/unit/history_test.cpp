#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "musatop/model/history.hpp"
#include "snapshot_builder.hpp"
#include "test_support.hpp"

using namespace musatop;

namespace {

Device gpu(std::int64_t index, std::optional<std::string> uuid, std::optional<double> util = 50,
           std::optional<std::int64_t> used = 50, std::optional<std::int64_t> total = 100) {
    Device d;
    d.index = index;
    d.uuid = std::move(uuid);
    d.gpu_utilization_percent = util;
    d.memory_used_bytes = used;
    d.memory_total_bytes = total;
    return d;
}

Snapshot snapshot_of(std::vector<Device> devices, bool stale = false) {
    return musatop::testing::SnapshotBuilder().devices(std::move(devices)).stale(stale, false).build();
}

std::vector<std::int64_t> seconds_of(const Series* series) {
    std::vector<std::int64_t> out;
    if (series)
        for (const auto& p : series->points()) out.push_back(p.second);
    return out;
}

}  // namespace

TEST(HistoryKeys, UuidThenPciNeverIndex) {
    Device d = gpu(0, " GPU-AbC ");
    d.bus_id = "0000:03:00.0";
    EXPECT_EQ(gpu_history_key(d), "uuid:gpu-abc");
    for (const char* unknown : {"", "N/A", "unknown", " None ", "--", "[N/A]"}) {
        d.uuid = unknown;
        EXPECT_EQ(gpu_history_key(d), "pci:0000:03:00.0") << unknown;
    }
    d.uuid.reset();
    EXPECT_EQ(gpu_history_key(d), "pci:0000:03:00.0");
    d.bus_id = "N/A";
    EXPECT_FALSE(gpu_history_key(d));
}

TEST(HistoryValues, OccupancyIsNotControllerUtilisation) {
    EXPECT_DOUBLE_EQ(*occupancy_percent(25, 80), 31.25);
    EXPECT_FALSE(occupancy_percent(0, 0));
    EXPECT_FALSE(occupancy_percent(0, -1));
    EXPECT_FALSE(occupancy_percent(-1, 100));
    EXPECT_FALSE(occupancy_percent(101, 100));
    EXPECT_FALSE(occupancy_percent(std::nullopt, 100));
    for (double bad : {-1.0, 101.0, std::numeric_limits<double>::infinity(), std::nan("")})
        EXPECT_FALSE(valid_percent(bad));
}

TEST(HistoryValues, AggregateNeedsEveryDevicePerMetric) {
    const Device a = gpu(0, "a", 10, 20, 100);
    const Device b = gpu(1, "b", 90, 180, 300);
    AggregateValues v = aggregate_values({&a, &b});
    EXPECT_DOUBLE_EQ(*v.util_percent, 50);
    EXPECT_DOUBLE_EQ(*v.memory_percent, 50);
    const Device no_util = gpu(2, "c", std::nullopt, 25, 100);
    const Device quarter = gpu(3, "d", 25, 25, 100);
    v = aggregate_values({&no_util, &quarter});
    EXPECT_FALSE(v.util_percent);
    EXPECT_DOUBLE_EQ(*v.memory_percent, 25);
    const Device no_used = gpu(4, "e", 20, std::nullopt, 100);
    const Device twenty = gpu(5, "f", 20, 20, 100);
    v = aggregate_values({&no_used, &twenty});
    EXPECT_DOUBLE_EQ(*v.util_percent, 20);
    EXPECT_FALSE(v.memory_percent);
    EXPECT_FALSE(aggregate_values({}).util_percent);
}

TEST(HistorySeries, PeaksWithinASecond) {
    Series s;
    s.append({1, 70, 10});
    s.append({1, 30, 90});
    s.append({1, std::nullopt, std::nullopt});
    ASSERT_EQ(s.size(), 1u);
    EXPECT_EQ(s.at(0), (HistoryPoint{1, 70, 90}));
    Series t;
    t.append({2, std::nullopt, std::nullopt});
    t.append({2, 0, 0});
    EXPECT_EQ(t.at(0), (HistoryPoint{2, 0, 0}));
}

// Points are kept compactly (floats, NaN for unknown): a value comes back to a
// float's precision, unknown stays unknown and never becomes 0.
TEST(HistorySeries, CompactStorageKeepsValuesAndUnknowns) {
    Series s;
    s.append({5, 33.3333333, std::nullopt});
    s.append({6, std::nullopt, 0.0});
    ASSERT_EQ(s.size(), 2u);
    ASSERT_TRUE(s.at(0).util_percent);
    EXPECT_NEAR(*s.at(0).util_percent, 33.3333333, 1e-5);
    EXPECT_FALSE(s.at(0).memory_percent);
    EXPECT_FALSE(s.at(1).util_percent);
    EXPECT_EQ(s.at(1).memory_percent, 0.0);
    EXPECT_EQ(s.at(1).second, 6);
}

TEST(History, WindowEdges) {
    History h;
    h.record(snapshot_of({gpu(0, "a")}), musatop::testing::mono(100.25));
    h.prune(399);
    EXPECT_EQ(seconds_of(h.gpu("uuid:a")), (std::vector<std::int64_t>{100}));
    h.prune(400);
    EXPECT_EQ(h.gpu("uuid:a"), nullptr);
}

TEST(History, DenseSamplingIsBoundedTo300Points) {
    History h;
    for (int i = 0; i <= 12000; ++i) h.record(snapshot_of({gpu(0, "a")}), musatop::testing::mono(i / 10.0));
    const auto seconds = seconds_of(h.gpu("uuid:a"));
    ASSERT_EQ(seconds.size(), 300u);
    EXPECT_EQ(seconds.front(), 901);
    EXPECT_EQ(seconds.back(), 1200);
}

TEST(History, SparseSamplesKeepTheirGaps) {
    History h;
    for (double t : {50.1, 50.9, 51.0, 61.0, 80.0, 300.0})
        h.record(snapshot_of({gpu(0, "a")}), musatop::testing::mono(t));
    EXPECT_EQ(seconds_of(h.gpu("uuid:a")), (std::vector<std::int64_t>{50, 51, 61, 80, 300}));
    h.record(snapshot_of({gpu(0, "a")}), musatop::testing::mono(700));
    EXPECT_EQ(seconds_of(h.gpu("uuid:a")), (std::vector<std::int64_t>{700}));
}

TEST(History, StaleDevicesAddNoPointsButStillExpire) {
    History h;
    Snapshot s = snapshot_of({gpu(0, "a")});
    s.host.cpu_percent = 10;
    h.record(s, musatop::testing::mono(1));
    s.devices_stale = true;
    h.record(s, musatop::testing::mono(2));
    EXPECT_EQ(seconds_of(h.gpu("uuid:a")), (std::vector<std::int64_t>{1}));
    EXPECT_EQ(seconds_of(h.host()), (std::vector<std::int64_t>{1, 2}));
    h.record(s, musatop::testing::mono(301));
    EXPECT_EQ(h.gpu("uuid:a"), nullptr);
}

TEST(History, DisappearanceAndReplacementStartOver) {
    History h;
    h.record(snapshot_of({gpu(0, "a"), gpu(1, "b")}), musatop::testing::mono(1));
    h.record(snapshot_of({gpu(0, "a")}), musatop::testing::mono(2));
    EXPECT_EQ(h.gpu("uuid:b"), nullptr);
    h.record(snapshot_of({gpu(0, "c")}), musatop::testing::mono(3));  // another card at the same index
    EXPECT_EQ(h.gpu("uuid:a"), nullptr);
    EXPECT_EQ(seconds_of(h.gpu("uuid:c")), (std::vector<std::int64_t>{3}));
}

TEST(History, IndexSwapKeepsPerUuidHistories) {
    History h;
    h.record(snapshot_of({gpu(0, "a", 10), gpu(1, "b", 20)}), musatop::testing::mono(1));
    h.record(snapshot_of({gpu(0, "b", 30), gpu(1, "a", 40)}), musatop::testing::mono(2));
    ASSERT_EQ(h.gpu("uuid:a")->size(), 2u);
    EXPECT_EQ(h.gpu("uuid:a")->at(1).util_percent, 40);
}

TEST(History, PciKeyedDeviceThatGainsAUuidStartsANewHistory) {
    History h;
    Device d = gpu(0, std::nullopt);
    d.bus_id = "0000:01:00.0";
    h.record(snapshot_of({d}), musatop::testing::mono(1));
    d.uuid = "x";
    h.record(snapshot_of({d}), musatop::testing::mono(2));
    EXPECT_EQ(h.gpu("pci:0000:01:00.0"), nullptr);
    EXPECT_EQ(seconds_of(h.gpu("uuid:x")), (std::vector<std::int64_t>{2}));
}

TEST(History, KeylessAndDuplicateIdentitiesNeverRecord) {
    History h;
    Device keyless = gpu(0, std::nullopt);
    keyless.bus_id = "N/A";
    h.record(snapshot_of({keyless, gpu(1, "dup"), gpu(2, "dup")}), musatop::testing::mono(1));
    EXPECT_EQ(h.gpu("uuid:dup"), nullptr);
    EXPECT_EQ(h.gpu("index:0"), nullptr);
    EXPECT_EQ(h.aggregate(), nullptr);
}

TEST(History, BackwardsClockClearsEverything) {
    History h;
    Snapshot s = snapshot_of({gpu(0, "a")});
    s.host.cpu_percent = 5;
    h.record(s, musatop::testing::mono(100));
    h.record(s, musatop::testing::mono(50));
    EXPECT_EQ(seconds_of(h.gpu("uuid:a")), (std::vector<std::int64_t>{50}));
    EXPECT_EQ(seconds_of(h.host()), (std::vector<std::int64_t>{50}));
}

TEST(History, HostIsRecordedWithoutDevicesAndMetricsAreIndependent) {
    History h;
    Snapshot s;
    s.host.cpu_percent = 0;
    h.record(s, musatop::testing::mono(10));
    s.host.cpu_percent.reset();
    s.host.memory_used_bytes = 0;
    s.host.memory_total_bytes = 100;
    h.record(s, musatop::testing::mono(11));
    s.host = HostMetrics{};
    h.record(s, musatop::testing::mono(12));  // failed host sample: a gap
    ASSERT_EQ(h.host()->size(), 2u);
    EXPECT_EQ(h.host()->at(0), (HistoryPoint{10, 0.0, std::nullopt}));
    EXPECT_EQ(h.host()->at(1), (HistoryPoint{11, std::nullopt, 0.0}));
    h.record(s, musatop::testing::mono(309));
    ASSERT_NE(h.host(), nullptr);
    EXPECT_EQ(h.host()->size(), 2u);
    h.record(s, musatop::testing::mono(310));
    ASSERT_NE(h.host(), nullptr);
    EXPECT_EQ(h.host()->size(), 1u);
}

TEST(HistoryAggregate, MeanIsTakenBeforeThePerSecondPeak) {
    History h;
    h.record(snapshot_of({gpu(0, "a", 100, 100, 100), gpu(1, "b", 0, 0, 100)}), musatop::testing::mono(5.1));
    h.record(snapshot_of({gpu(0, "a", 0, 0, 100), gpu(1, "b", 100, 100, 100)}), musatop::testing::mono(5.6));
    EXPECT_EQ(h.gpu("uuid:a")->at(0).util_percent, 100);
    EXPECT_EQ(h.gpu("uuid:b")->at(0).util_percent, 100);
    EXPECT_EQ(h.aggregate()->at(0), (HistoryPoint{5, 50.0, 50.0}));
}

TEST(HistoryAggregate, FilterAppliesToTheAggregateOnly) {
    std::set<std::int64_t> selection = {1};
    History h(selection);
    selection.insert(0);  // the caller's later change has no effect
    h.record(snapshot_of({gpu(0, "a", 10), gpu(1, "b", 90)}), musatop::testing::mono(1));
    EXPECT_EQ(h.aggregate()->at(0).util_percent, 90);
    EXPECT_NE(h.gpu("uuid:a"), nullptr);
}

TEST(HistoryAggregate, MembershipRules) {
    History h;
    h.record(snapshot_of({gpu(0, "a"), gpu(1, "b")}), musatop::testing::mono(1));
    h.record(snapshot_of({gpu(1, "b"), gpu(0, "a")}), musatop::testing::mono(2));  // same set reordered
    EXPECT_EQ(h.aggregate()->size(), 2u);
    h.record(snapshot_of({gpu(0, "a")}), musatop::testing::mono(3));  // membership change resets
    EXPECT_EQ(seconds_of(h.aggregate()), (std::vector<std::int64_t>{3}));
    EXPECT_EQ(seconds_of(h.gpu("uuid:a")), (std::vector<std::int64_t>{1, 2, 3}));
    h.record(snapshot_of({gpu(0, std::nullopt)}), musatop::testing::mono(4));  // unreliable identity removes it
    EXPECT_EQ(h.aggregate(), nullptr);
    h.record(snapshot_of({}), musatop::testing::mono(5));
    EXPECT_EQ(h.aggregate(), nullptr);
}

TEST(HistoryAggregate, FilteredIdentityChangeResetsUnfilteredChangeDoesNot) {
    History h(std::set<std::int64_t>{0});
    h.record(snapshot_of({gpu(0, "a"), gpu(1, "b")}), musatop::testing::mono(1));
    h.record(snapshot_of({gpu(0, "a"), gpu(1, "z")}), musatop::testing::mono(2));
    EXPECT_EQ(h.aggregate()->size(), 2u);
    h.record(snapshot_of({gpu(0, "x"), gpu(1, "z")}), musatop::testing::mono(3));
    EXPECT_EQ(seconds_of(h.aggregate()), (std::vector<std::int64_t>{3}));
}

TEST(HistoryAggregate, MissingMetricAndFailureKeepHoles) {
    History h;
    h.record(snapshot_of({gpu(0, "a", 50, 50, 100)}), musatop::testing::mono(1));
    h.record(snapshot_of({gpu(0, "a", std::nullopt, 50, 100)}), musatop::testing::mono(2));
    h.record(snapshot_of({gpu(0, "a")}, true), musatop::testing::mono(3));
    h.record(snapshot_of({gpu(0, "a", 50, 50, 100)}), musatop::testing::mono(4));
    const auto points = h.aggregate()->points();
    ASSERT_EQ(points.size(), 3u);
    EXPECT_EQ(points[0], (HistoryPoint{1, 50.0, 50.0}));
    EXPECT_EQ(points[1], (HistoryPoint{2, std::nullopt, 50.0}));
    EXPECT_EQ(points[2], (HistoryPoint{4, 50.0, 50.0}));
}

TEST(HistoryAggregate, HugeMemorySizesDoNotOverflow) {
    // Two GPUs of 8000000 TiB (which the parser accepts): their int64 sum would
    // overflow; UBSan in the sanitizer suite proves it does not happen.
    constexpr std::int64_t huge = 8000000LL << 40;
    const Device a = gpu(0, "a", 10, huge / 2, huge);
    const Device b = gpu(1, "b", 30, huge, huge);
    const auto values = aggregate_values({&a, &b});
    ASSERT_TRUE(values.memory_percent);
    EXPECT_DOUBLE_EQ(*values.memory_percent, 75.0);
    EXPECT_DOUBLE_EQ(*values.util_percent, 20.0);
}
