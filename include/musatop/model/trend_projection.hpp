// Projects a history series onto N screen columns with fixed, time-anchored bucket
// boundaries: as time passes, closed buckets only slide left and never regroup.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "musatop/model/history.hpp"

namespace musatop {

enum class TrendMetric { util, memory };

// `columns` samples (unknown where no point fell); each is the peak of its bucket.
// Bucket of second t = floor(t * (N - 1) / 300); the newest bucket is the last column.
std::vector<std::optional<double>> project_trend(const Series* series, TrendMetric metric, int columns,
                                                 std::int64_t now_second);

}  // namespace musatop
