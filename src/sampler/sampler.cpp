#include "musatop/sampler/sampler.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <exception>
#include <string>

namespace musatop {

Sampler::Sampler(std::unique_ptr<Source> source, SamplerSettings settings)
    : source_(std::move(source)),
      settings_(std::move(settings)),
      published_fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)),
      history_(settings_.aggregate_indices) {
    if (!settings_.clock) settings_.clock = [] { return mono_now(); };
}

Sampler::~Sampler() { stop(); }

void Sampler::start() {
    std::lock_guard lock(mutex_);
    if (thread_.joinable() || stop_requested_) return;
    thread_ = std::thread([this] { run(); });
}

void Sampler::stop() {
    {
        std::lock_guard lock(mutex_);
        stop_requested_ = true;
    }
    canceller_.cancel();
    wake_.notify_all();
    if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

void Sampler::request_refresh() {
    {
        std::lock_guard lock(mutex_);
        refresh_requested_ = true;
    }
    wake_.notify_all();
}

Frame Sampler::latest() const {
    std::lock_guard lock(mutex_);
    return ring_[revision_.load(std::memory_order_relaxed) % kRingSize];
}

std::vector<Frame> Sampler::recent() const {
    std::lock_guard lock(mutex_);
    std::vector<Frame> frames;
    const std::uint64_t newest = revision_.load(std::memory_order_relaxed);
    for (std::uint64_t r = newest; r > 0 && newest - r < kRingSize; --r) frames.push_back(ring_[r % kRingSize]);
    return frames;
}

Snapshot Sampler::collect_safely() {
    std::string reason;
    try {
        return source_->collect(canceller_.token());
    } catch (const std::exception& error) {
        reason = error.what();
    } catch (...) {
        reason = "unknown error";
    }
    // Keep the last good data on screen, flagged stale, with the reason.
    Snapshot failed = previous_ ? *previous_ : Snapshot{};
    failed.sampled_at = wall_now();
    failed.devices_stale = true;
    failed.processes_stale = true;
    failed.host = HostMetrics{};
    failed.errors = {"Sampling failed: " + reason};
    return failed;
}

void Sampler::publish(Snapshot snapshot, MonoTime completed_at) {
    if (settings_.on_round) settings_.on_round(snapshot);
    history_.record(snapshot, completed_at);
    ++counts_.rounds;
    counts_.device_failures += snapshot.devices_stale ? 1 : 0;
    counts_.process_failures += snapshot.processes_stale ? 1 : 0;
    auto shared_snapshot = std::make_shared<const Snapshot>(std::move(snapshot));
    auto shared_history = std::make_shared<const History>(history_);
    previous_ = shared_snapshot;
    std::lock_guard lock(mutex_);
    const std::uint64_t current = revision_.load(std::memory_order_relaxed);
    const std::uint64_t next = current + 1;
    // Only the newest frame in the ring keeps its history: every reader wants the
    // newest, and a copy of the history is 12 KB per GPU (readers that hold an
    // older frame keep theirs alive through their own pointer).
    ring_[current % kRingSize].history.reset();
    ring_[next % kRingSize] = Frame{std::move(shared_snapshot), std::move(shared_history), next, completed_at, counts_};
    revision_.store(next, std::memory_order_release);
    const std::uint64_t one = 1;
    [[maybe_unused]] const ssize_t written = ::write(published_fd_.get(), &one, sizeof one);
}

void Sampler::run() {
    using Clock = std::chrono::steady_clock;
    for (;;) {
        const auto started = Clock::now();
        {
            std::lock_guard lock(mutex_);
            if (stop_requested_) return;
            refresh_requested_ = false;
        }
        Snapshot snapshot = collect_safely();
        {
            std::lock_guard lock(mutex_);
            if (stop_requested_) return;
        }
        publish(std::move(snapshot), settings_.clock());

        // Start-to-start: a slow round stretches the interval, never overlaps the next.
        const auto next_start = started + settings_.interval;
        std::unique_lock lock(mutex_);
        wake_.wait_until(lock, next_start, [this] { return stop_requested_ || refresh_requested_; });
        if (stop_requested_) return;
    }
}

}  // namespace musatop
