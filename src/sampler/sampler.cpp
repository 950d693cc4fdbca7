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
      history_(settings_.aggregate_indices),
      loop_(settings_.interval, [this](MonoTime, CancelToken cancel) { return round(cancel), true; }) {
    if (!settings_.clock) settings_.clock = [] { return mono_now(); };
}

Sampler::~Sampler() { stop(); }

void Sampler::start() { loop_.start(); }

void Sampler::stop() {
    loop_.stop();
    loop_.join();
}

void Sampler::request_refresh() { loop_.request_refresh(); }

Frame Sampler::latest() const {
    std::lock_guard lock(mutex_);
    return latest_;
}

Snapshot Sampler::collect_safely(CancelToken cancel) {
    std::string reason;
    try {
        return source_->collect(cancel);
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
    latest_ = Frame{std::move(shared_snapshot), std::move(shared_history), next, completed_at, counts_};
    revision_.store(next, std::memory_order_release);
    const std::uint64_t one = 1;
    [[maybe_unused]] const ssize_t written = ::write(published_fd_.get(), &one, sizeof one);
}

void Sampler::round(CancelToken cancel) {
    Snapshot snapshot = collect_safely(cancel);
    if (cancel.requested()) return;  // stopped mid-round: nothing half-collected is published
    publish(std::move(snapshot), settings_.clock());
}

}  // namespace musatop
