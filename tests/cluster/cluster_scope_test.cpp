// What a refresh asks Prometheus for: every series the view reads (--json), only
// those the screen draws, plus every series of the node the drill-down shows; and
// the screen's sampler telling its source which.
#include <gtest/gtest.h>

#include "musatop/output/metric_table.hpp"
#include <poll.h>

#include <mutex>

#include "musatop/cluster/cluster_sampler.hpp"
#include "musatop/cluster/prometheus_source.hpp"

using namespace musatop;
using namespace musatop::cluster;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST(PrometheusQuery, EverySeriesTheViewReadsInOneSelector) {
    const std::string query = cluster_query("musatop");
    EXPECT_EQ(query.rfind("{__name__=~\"up|musatop_host_info|musatop_collect_timestamp_seconds|", 0), 0u) << query;
    for (const char* used : {"|musatop_gpu_info|", "|musatop_process_info|", "|musatop_gpu_utilization_ratio|",
                             "|musatop_gpu_power_limit_watts|", "|musatop_gpu_pcie_link_width_max|",
                             "|musatop_gpu_retired_pages_pending|"})
        EXPECT_TRUE(has(query, used)) << used;
    // Every GPU gauge of the metric table, the derived ones too: the process count
    // tells a busy GPU whose rows are not exported, the findings give the "!" marks.
    for (const auto& gauge : musatop::metrics::kGpuMetrics)
        EXPECT_TRUE(has(query, std::string(gauge.name) + "|") || has(query, std::string(gauge.name) + "\""))
            << gauge.name;
    EXPECT_TRUE(query.ends_with("\",job=\"musatop\"}")) << query;
    EXPECT_FALSE(has(query, " or "));  // one selector: `or up{…}` cost Prometheus more than the rest
}

TEST(PrometheusQuery, TheScreenAsksForWhatItDraws) {
    const std::string query = cluster_query("musatop", RoundScope{true, std::nullopt});
    for (const char* drawn :
         {"up|", "|musatop_gpu_info|", "|musatop_process_gpu_memory_bytes|", "|musatop_process_info|",
          "|musatop_gpu_utilization_ratio|", "|musatop_gpu_memory_used_bytes|", "|musatop_gpu_memory_total_bytes|",
          "|musatop_gpu_temperature_celsius|", "|musatop_gpu_processes|", "|musatop_gpu_health_findings\""})
        EXPECT_TRUE(has(query, drawn)) << drawn;
    for (const char* details : {"power_limit", "clock_hertz", "fan_speed", "pcie_link", "memory_busy"})
        EXPECT_FALSE(has(query, details)) << details;
    EXPECT_FALSE(has(query, " or "));
}

TEST(PrometheusQuery, TheDrillDownsNodeGetsTheRest) {
    const std::string query = cluster_query("my \"job\"", RoundScope{true, std::string("gpu07:9499")});
    const auto or_at = query.find(" or on(__name__) {");
    ASSERT_NE(or_at, std::string::npos) << query;
    const std::string cluster = query.substr(0, or_at), node = query.substr(or_at);
    EXPECT_FALSE(has(cluster, "power_limit"));
    for (const char* details : {"musatop_gpu_power_limit_watts", "musatop_gpu_graphics_clock_hertz",
                                "musatop_gpu_pcie_link_width_max", "musatop_gpu_memory_busy_ratio"})
        EXPECT_TRUE(has(node, details)) << details;
    EXPECT_FALSE(has(node, "musatop_gpu_utilization_ratio"));  // the left side has it already
    EXPECT_TRUE(node.ends_with(",job=\"my \\\"job\\\"\",instance=\"gpu07:9499\"}")) << node;
    // Names from outside cannot end the string early.
    const std::string hostile = cluster_query("musatop", RoundScope{true, std::string("a\\\"} or vector(1) #\n")});
    EXPECT_TRUE(hostile.ends_with("instance=\"a\\\\\\\"} or vector(1) #\\n\"}")) << hostile;
}

namespace {

// A source that remembers the scope of each round.
class ScopeRecorder final : public ClusterSource {
public:
    ClusterSnapshot round(MonoTime, CancelToken) override {
        std::lock_guard lock(mutex_);
        rounds_.push_back(scope_);
        return ClusterSnapshot{};
    }
    void set_scope(const RoundScope& scope) override { scope_ = scope; }
    std::vector<RoundScope> rounds() const {
        std::lock_guard lock(mutex_);
        return rounds_;
    }

private:
    mutable std::mutex mutex_;
    RoundScope scope_;
    std::vector<RoundScope> rounds_;
};

// Waits (up to 10 s, far beyond a round here) for the sampler's next publication.
bool next_round(const ClusterSampler& sampler) {
    pollfd ready{sampler.publication_fd(), POLLIN, 0};
    if (::poll(&ready, 1, 10'000) != 1) return false;
    std::uint64_t count = 0;
    return ::read(sampler.publication_fd(), &count, sizeof count) == sizeof count;
}

}  // namespace

TEST(ClusterSampler, TheScreenAsksForItsScopeAndADrillDownRefreshesAtOnce) {
    auto source = std::make_unique<ScopeRecorder>();
    const ScopeRecorder& recorder = *source;
    ClusterSampler sampler(std::move(source), Seconds(3600));  // no round but the first comes on its own
    sampler.start();
    ASSERT_TRUE(next_round(sampler));
    sampler.set_focus(std::string("gpu07:9499"));
    ASSERT_TRUE(next_round(sampler));
    const auto rounds = recorder.rounds();
    ASSERT_EQ(rounds.size(), 2u);
    EXPECT_TRUE(rounds[0].screen_only);
    EXPECT_FALSE(rounds[0].focus);
    EXPECT_TRUE(rounds[1].screen_only);
    EXPECT_EQ(rounds[1].focus, "gpu07:9499");
}

namespace {

// One node, one GPU, its utilization going up by 10 points a round.
class RisingNode final : public ClusterSource {
public:
    ClusterSnapshot round(MonoTime, CancelToken) override {
        auto snapshot = std::make_shared<Snapshot>();
        Device gpu;
        gpu.uuid = "gpu-0";
        gpu.gpu_utilization_percent = 10.0 * ++rounds_;
        snapshot->devices.push_back(gpu);
        ClusterSnapshot cluster;
        NodeView node;
        node.address = "gpu01:9499";
        node.state = NodeState::ok;
        node.snapshot = std::move(snapshot);
        cluster.nodes.push_back(std::move(node));
        return cluster;
    }

private:
    int rounds_ = 0;
};

double last_util(const History& history) {
    const Series* series = history.gpu("uuid:gpu-0");
    return series && !series->empty() ? series->at(series->size() - 1).util_percent.value_or(-1) : -1;
}

}  // namespace

TEST(ClusterSampler, AHistoryAReaderHoldsNeverChangesUnderIt) {
    ClusterSampler sampler(std::make_unique<RisingNode>(), Seconds(3600));
    sampler.start();
    ASSERT_TRUE(next_round(sampler));
    const Frame held = sampler.node_frame("gpu01:9499");
    ASSERT_TRUE(held.history);
    EXPECT_DOUBLE_EQ(last_util(*held.history), 10.0);
    for (const double expected : {20.0, 30.0}) {
        sampler.request_refresh();
        ASSERT_TRUE(next_round(sampler));
        // Rounds within one second share a point (its peak): recorded in place,
        // the held history would show the new peak.
        EXPECT_DOUBLE_EQ(last_util(*held.history), 10.0);
        EXPECT_DOUBLE_EQ(last_util(*sampler.node_frame("gpu01:9499").history), expected);
    }
}

TEST(MetricTable, EveryGaugeReadsBackWhatItExports) {
    // Each member-backed gauge: a value through the series and back is the value.
    musatop::Device device;
    device.gpu_utilization_percent = 64.6;
    device.memory_used_bytes = 123456789;
    device.graphics_clock_mhz = 1750.5;
    device.retired_pages_pending = true;
    device.pcie_link_width_current = 16;
    musatop::Device back;
    for (const auto& gauge : musatop::metrics::kGpuMetrics) {
        if (const auto value = musatop::metrics::series_value(gauge, device))
            musatop::metrics::read_back(gauge, back, *value);
    }
    EXPECT_EQ(back.gpu_utilization_percent, 64.6);
    EXPECT_EQ(back.memory_used_bytes, 123456789);
    EXPECT_EQ(back.graphics_clock_mhz, 1750.5);
    EXPECT_EQ(back.retired_pages_pending, true);
    EXPECT_EQ(back.pcie_link_width_current, 16);
    EXPECT_FALSE(back.temperature_c);  // unknown stays unknown
    EXPECT_DOUBLE_EQ(
        *musatop::metrics::series_value(*musatop::metrics::find_gpu_metric("musatop_gpu_utilization_ratio"), device),
        0.646);
    EXPECT_EQ(
        musatop::metrics::series_value(*musatop::metrics::find_gpu_metric("musatop_gpu_graphics_clock_hertz"), device),
        1750.5e6);
    musatop::Device absurd;
    musatop::metrics::read_back(*musatop::metrics::find_gpu_metric("musatop_gpu_memory_used_bytes"), absurd, 1e300);
    EXPECT_FALSE(absurd.memory_used_bytes);  // no integer holds it: unknown, not a wrapped number
}
