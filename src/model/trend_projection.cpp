#include "musatop/model/trend_projection.hpp"

#include <algorithm>

namespace musatop {
namespace {

// Floor division that stays right for negative monotonic seconds.
std::int64_t floor_div(std::int64_t a, std::int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

}  // namespace

std::vector<std::optional<double>> project_trend(const Series* series, TrendMetric metric, int columns,
                                                 std::int64_t now_second) {
    if (columns <= 0) return {};
    std::vector<std::optional<double>> out(static_cast<std::size_t>(columns));
    if (!series) return out;
    const std::int64_t scale = columns - 1;
    const auto bucket = [&](std::int64_t t) { return scale == 0 ? 0 : floor_div(t * scale, kHistorySeconds); };
    const std::int64_t current = bucket(now_second);
    for (std::size_t i = 0; i < series->size(); ++i) {
        const HistoryPoint& point = series->at(i);
        if (point.second < now_second - (kHistorySeconds - 1) || point.second > now_second) continue;
        const auto value = valid_percent(metric == TrendMetric::util ? point.util_percent : point.memory_percent);
        if (!value) continue;
        const std::int64_t column = scale + bucket(point.second) - current;
        if (column < 0 || column >= columns) continue;
        auto& slot = out[static_cast<std::size_t>(column)];
        slot = slot ? std::max(*slot, *value) : *value;
    }
    return out;
}

}  // namespace musatop
