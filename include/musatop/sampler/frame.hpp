// One published sample: the snapshot, the history up to it, and bookkeeping.
#pragma once

#include <cstdint>
#include <memory>

#include "musatop/model/history.hpp"
#include "musatop/model/snapshot.hpp"
#include "musatop/util/clock.hpp"

namespace musatop {

// Rounds since the sampler started, and how many of them failed per source.
struct RoundCounts {
    std::uint64_t rounds = 0;
    std::uint64_t device_failures = 0;
    std::uint64_t process_failures = 0;
};

struct Frame {
    std::shared_ptr<const Snapshot> snapshot;
    std::shared_ptr<const History> history;
    std::uint64_t revision = 0;
    MonoTime completed_at{};  // when the round ended (history is recorded at this time)
    RoundCounts counts;
    Provenance provenance = Provenance::live;
};

}  // namespace musatop
