// One background thread that collects at a fixed start-to-start interval, records
// history at completion time, and publishes immutable frames. Readers take the
// newest frame without copying anything and without holding a lock while drawing.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "musatop/collection/collector.hpp"
#include "musatop/model/history.hpp"
#include "musatop/model/snapshot.hpp"
#include "musatop/util/unique_fd.hpp"

namespace musatop {

struct Frame {
    std::shared_ptr<const Snapshot> snapshot;
    std::shared_ptr<const History> history;
    std::uint64_t revision = 0;
};

struct SamplerSettings {
    std::chrono::duration<double> interval{1.0};
    std::optional<std::set<std::int64_t>> aggregate_indices;
    // Seconds on a monotonic clock; replaceable so tests control history time.
    std::function<double()> monotonic_seconds;
};

class Sampler {
public:
    static constexpr std::size_t kRingSize = 8;

    Sampler(std::unique_ptr<Collector> collector, SamplerSettings settings);
    Sampler(const Sampler&) = delete;
    Sampler& operator=(const Sampler&) = delete;
    ~Sampler();

    void start();  // idempotent
    // Returns promptly even mid-collection: running GMI calls are cancelled.
    void stop();
    // Wakes the sampler now; a round already running is never duplicated.
    void request_refresh();

    // Readable after each publication (an eventfd), so a reader can sleep in poll()
    // instead of checking the revision on a timer.
    int publication_fd() const { return published_fd_.get(); }

    Frame latest() const;
    std::uint64_t revision() const { return revision_.load(std::memory_order_acquire); }
    // Recent frames, newest first (at most kRingSize).
    std::vector<Frame> recent() const;

private:
    void run();
    Snapshot collect_safely();
    void publish(Snapshot snapshot, double completed_at);

    std::unique_ptr<Collector> collector_;
    SamplerSettings settings_;
    UniqueFd cancel_fd_;
    UniqueFd published_fd_;

    mutable std::mutex mutex_;
    std::condition_variable wake_;
    bool stop_requested_ = false;
    bool refresh_requested_ = false;
    std::array<Frame, kRingSize> ring_{};
    std::atomic<std::uint64_t> revision_{0};

    History history_;  // sampler thread only
    std::shared_ptr<const Snapshot> previous_;
    std::thread thread_;
};

}  // namespace musatop
