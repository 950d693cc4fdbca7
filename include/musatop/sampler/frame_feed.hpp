// What the screen reads frames from: the live sampler, or a recording being
// replayed (whose keys go to a replay::ReplayControl beside it).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "musatop/sampler/frame.hpp"
#include "musatop/util/clock.hpp"

namespace musatop {

class FrameFeed {
public:
    virtual ~FrameFeed() = default;
    virtual Frame latest() const = 0;
    virtual std::uint64_t revision() const = 0;
    virtual int publication_fd() const = 0;  // readable after each publication
    virtual void request_refresh() = 0;
    virtual std::chrono::steady_clock::duration interval() const = 0;
    // The second the trends end at: now for live data, the recording's own time
    // for a replay.
    virtual std::int64_t trend_second(MonoTime now) const { return whole_seconds(now); }
    // "REPLAY 2026-12-02 03:15:00 4x" for a replay; empty for live data.
    virtual std::string status_badge() const { return {}; }
};

}  // namespace musatop
