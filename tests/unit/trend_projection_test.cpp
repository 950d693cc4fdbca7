#include <gtest/gtest.h>

#include "musatop/model/trend_projection.hpp"

using namespace musatop;
using Samples = std::vector<std::optional<double>>;

namespace {

Series series_of(const std::vector<std::pair<std::int64_t, double>>& points, bool as_memory = false) {
    Series s;
    for (const auto& [second, value] : points)
        s.append(as_memory ? HistoryPoint{second, std::nullopt, value} : HistoryPoint{second, value, std::nullopt});
    return s;
}

std::vector<int> known_columns(const Samples& samples) {
    std::vector<int> out;
    for (std::size_t i = 0; i < samples.size(); ++i)
        if (samples[i]) out.push_back(static_cast<int>(i));
    return out;
}

}  // namespace

TEST(TrendProjection, WorkedExample) {
    Series s;
    for (auto [t, u, m] : std::vector<std::tuple<int, double, double>>{
             {700, 99, 0}, {701, 10, 20}, {710, 80, 10}, {711, 30, 5}, {1000, 100, 0}, {1001, 99, 0}})
        s.append({t, u, m});
    const Samples util = project_trend(&s, TrendMetric::util, 30, 1000);
    ASSERT_EQ(util.size(), 30u);
    EXPECT_EQ(util[0], 10);
    EXPECT_EQ(util[1], 80);
    for (int i = 2; i < 29; ++i) EXPECT_FALSE(util[static_cast<std::size_t>(i)]) << i;
    EXPECT_EQ(util[29], 100);
    const Samples memory = project_trend(&s, TrendMetric::memory, 30, 1000);
    EXPECT_EQ(memory[0], 20);
    EXPECT_EQ(memory[1], 10);
    EXPECT_EQ(memory[29], 0);
}

TEST(TrendProjection, ColumnsAtHighResolution) {
    const Series s = series_of({{800, 1}, {810, 1}, {815, 1}, {880, 1}, {990, 1}});
    EXPECT_EQ(known_columns(project_trend(&s, TrendMetric::util, 301, 1000)),
              (std::vector<int>{100, 110, 115, 180, 290}));
    EXPECT_EQ(known_columns(project_trend(&s, TrendMetric::util, 601, 1000)),
              (std::vector<int>{200, 220, 230, 360, 580}));
}

TEST(TrendProjection, NearbyPointsMergeOrSplitByWidth) {
    const Series s = series_of({{995, 81}, {997, 89}});
    auto narrow = project_trend(&s, TrendMetric::util, 10, 1000);
    EXPECT_EQ(known_columns(narrow), (std::vector<int>{8}));
    EXPECT_EQ(narrow[8], 89);
    EXPECT_EQ(known_columns(project_trend(&s, TrendMetric::util, 301, 1000)).size(), 2u);
    const auto medium = project_trend(&s, TrendMetric::util, 66, 1100);
    EXPECT_EQ(medium[42], 81);
    EXPECT_EQ(medium[43], 89);
}

TEST(TrendProjection, OpenBucketGainsOldestBucketLoses) {
    Series s = series_of({{997, 10}});
    EXPECT_EQ(project_trend(&s, TrendMetric::util, 66, 1000).back(), 10);
    s.append({1000, 75, std::nullopt});
    s.append({1001, 60, std::nullopt});
    EXPECT_EQ(project_trend(&s, TrendMetric::util, 66, 1001).back(), 75);
    const auto later = project_trend(&s, TrendMetric::util, 66, 1002);
    EXPECT_EQ(later[64], 75);
    EXPECT_FALSE(later[65]);
    const Series old = series_of({{701, 90}, {702, 10}});
    EXPECT_EQ(project_trend(&old, TrendMetric::util, 30, 1000)[0], 90);
    EXPECT_EQ(project_trend(&old, TrendMetric::util, 30, 1001)[0], 10);
    EXPECT_TRUE(known_columns(project_trend(&old, TrendMetric::util, 30, 1002)).empty());
}

TEST(TrendProjection, ClosedBucketsOnlySlideLeft) {
    Series s;
    for (int t = 700; t <= 1140; ++t) s.append({t, static_cast<double>((t * 37) % 101), std::nullopt});
    for (int width : {10, 30, 66, 70, 134, 300, 301, 601}) {
        for (int now = 1000; now < 1140; ++now) {
            const auto before = project_trend(&s, TrendMetric::util, width, now);
            const auto after = project_trend(&s, TrendMetric::util, width, now + 1);
            const std::int64_t scale = width - 1;
            const std::int64_t shift = (now + 1) * scale / 300 - now * scale / 300;
            // Every closed bucket that is neither the oldest (partial) nor the open one
            // keeps its value and moves left by exactly `shift` columns.
            for (std::int64_t c = 1 + shift; c < width - 1; ++c)
                ASSERT_EQ(after[static_cast<std::size_t>(c - shift)], before[static_cast<std::size_t>(c)])
                    << "width " << width << " now " << now << " column " << c;
        }
    }
}

TEST(TrendProjection, NoInterpolationAndNoMutationOnResize) {
    const Series s = series_of({{900, 50}, {1000, 60}});
    const auto wide = project_trend(&s, TrendMetric::util, 601, 1000);
    EXPECT_EQ(known_columns(wide).size(), 2u);
    EXPECT_EQ(s.size(), 2u);
    EXPECT_EQ(project_trend(&s, TrendMetric::util, 1, 1000), (Samples{60}));
}

TEST(TrendProjection, InvalidValuesAndEdgeWidths) {
    Series s;
    s.append({998, std::nullopt, std::nullopt});
    s.append({999, -1, std::nullopt});
    s.append({1000, 101, std::nullopt});
    EXPECT_TRUE(known_columns(project_trend(&s, TrendMetric::util, 30, 1000)).empty());
    EXPECT_TRUE(project_trend(&s, TrendMetric::util, 0, 1000).empty());
    EXPECT_EQ(project_trend(nullptr, TrendMetric::util, 5, 1000).size(), 5u);
    const Series single = series_of({{900, 25}, {950, 10}});
    EXPECT_EQ(project_trend(&single, TrendMetric::util, 1, 1000), (Samples{25}));
}

TEST(TrendProjection, FuturePointsAreIgnored) {
    const Series s = series_of({{1001, 50}});
    EXPECT_TRUE(known_columns(project_trend(&s, TrendMetric::util, 30, 1000)).empty());
}
