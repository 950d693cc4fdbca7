// One background thread that collects at a fixed start-to-start interval, records
// history at completion time, and publishes immutable frames. Readers take the
// newest frame without copying anything and without holding a lock while drawing.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>

#include "musatop/model/history.hpp"
#include "musatop/sampler/frame_feed.hpp"
#include "musatop/sampler/round_loop.hpp"
#include "musatop/model/snapshot.hpp"
#include "musatop/model/source.hpp"
#include "musatop/util/cancel.hpp"
#include "musatop/util/clock.hpp"
#include "musatop/util/unique_fd.hpp"

namespace musatop {

struct SamplerSettings {
    std::chrono::steady_clock::duration interval = std::chrono::seconds(1);
    std::optional<std::set<std::int64_t>> aggregate_indices;
    // The monotonic clock that stamps history; replaceable so tests control time.
    std::function<MonoTime()> clock;
    // Called on the sampler's thread with each round's snapshot before it is
    // published (the agent's log of source failures and recoveries).
    std::function<void(const Snapshot&)> on_round;
};

class Sampler final : public FrameFeed {
public:
    Sampler(std::unique_ptr<Source> source, SamplerSettings settings);
    Sampler(const Sampler&) = delete;
    Sampler& operator=(const Sampler&) = delete;
    ~Sampler();

    void start();  // idempotent
    // Returns promptly even mid-collection: running GMI calls are cancelled.
    void stop();
    // Wakes the sampler now; a round already running is never duplicated.
    void request_refresh() override;

    // Readable after each publication (an eventfd), so a reader can sleep in poll()
    // instead of checking the revision on a timer.
    int publication_fd() const override { return published_fd_.get(); }
    const SamplerSettings& settings() const { return settings_; }

    Frame latest() const override;
    std::uint64_t revision() const override { return revision_.load(std::memory_order_acquire); }
    std::chrono::steady_clock::duration interval() const override { return settings_.interval; }

private:
    void round(CancelToken cancel);
    Snapshot collect_safely(CancelToken cancel);
    void publish(Snapshot snapshot, MonoTime completed_at);

    std::unique_ptr<Source> source_;
    SamplerSettings settings_;
    UniqueFd published_fd_;

    mutable std::mutex mutex_;
    Frame latest_;  // every reader wants the newest; one who holds an older one keeps it alive
    std::atomic<std::uint64_t> revision_{0};

    History history_;     // sampler thread only
    RoundCounts counts_;  // sampler thread only
    std::shared_ptr<const Snapshot> previous_;
    RoundLoop loop_;  // last: stopped and joined before the members its rounds use go
};

}  // namespace musatop
