// Values from elsewhere (a node's answer, a Prometheus series, a recording) are
// checked against what hardware can report before anything shows or adds them:
// NaN, infinities and values no GPU or host can have (-9223372036854775808 %,
// 8 EiB of VRAM) become unknown, as unknown is never a number (README, Standards).
// The bounds are generous: they catch nonsense, not unusual hardware.
#pragma once

#include <cstdint>

#include "musatop/model/snapshot.hpp"

namespace musatop {

inline constexpr std::int64_t kMaxPlausibleBytes = std::int64_t{1} << 52;  // 4 PiB: one device's or host's memory

// Every implausible value of `snapshot` made unknown.
void drop_implausible(Snapshot& snapshot);

// a + b, held at INT64_MAX instead of wrapping (a cluster's VRAM total).
std::int64_t saturating_add(std::int64_t a, std::int64_t b);

}  // namespace musatop
