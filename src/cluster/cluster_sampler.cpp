#include "musatop/cluster/cluster_sampler.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <chrono>

namespace musatop::cluster {

ClusterSampler::ClusterSampler(std::unique_ptr<ClusterSource> source, Seconds interval)
    : source_(std::move(source)),
      interval_(interval),
      published_fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)),
      loop_(to_duration(interval),
            [this](MonoTime started, CancelToken cancel) { return round(started, cancel), true; }) {}

ClusterSampler::~ClusterSampler() {
    loop_.stop();  // a round in progress ends at once
    loop_.join();
}

void ClusterSampler::start() { loop_.start(); }

std::shared_ptr<const ClusterSnapshot> ClusterSampler::latest() const {
    std::lock_guard lock(mutex_);
    return latest_;
}

void ClusterSampler::request_refresh() { loop_.request_refresh(); }

void ClusterSampler::set_focus(std::optional<std::string> address) {
    bool refresh = false;
    {
        std::lock_guard lock(mutex_);
        if (focus_ == address) return;
        focus_ = std::move(address);
        refresh = focus_.has_value();  // the drill-down's details without waiting an interval
    }
    if (refresh) loop_.request_refresh();
}

Frame ClusterSampler::node_frame(const std::string& address) const {
    std::lock_guard lock(mutex_);
    Frame frame;
    frame.revision = revision_.load();
    if (!latest_) return frame;
    for (const auto& node : latest_->nodes) {
        if (node.address != address || !node.snapshot) continue;
        frame.snapshot = node.snapshot;
        frame.provenance = Provenance::remote;
        frame.completed_at = mono_now();
    }
    if (const auto it = histories_.find(address); it != histories_.end()) frame.history = it->second;
    return frame;
}

void ClusterSampler::record_histories(const ClusterSnapshot& cluster, MonoTime now) {
    // Under the lock: recording is a few points a GPU, and readers get histories
    // only through node_frame(), under the same lock.
    std::lock_guard lock(mutex_);
    const bool all = cluster.nodes.size() <= kHistoryForAllNodes;
    std::map<std::string, std::shared_ptr<History>> next;
    for (const auto& node : cluster.nodes) {
        if (!node.snapshot || (!all && node.address != focus_)) continue;
        std::shared_ptr<History> history;
        if (const auto it = histories_.find(node.address); it != histories_.end()) history = std::move(it->second);
        if (!history || recorded_[node.address] != node.snapshot) {
            // A history a reader holds (the drill-down's frame) is copied first, so
            // the reader's stays as it was; any other is recorded in place. Copying
            // every node's five minutes each round was 17 % of the screen's CPU over
            // 64 nodes. A count of one cannot grow while the lock is held; the fence
            // orders a reader's last use before this write.
            if (history && history.use_count() > 1) history = std::make_shared<History>(*history);
            else std::atomic_thread_fence(std::memory_order_acquire);
            if (!history) history = std::make_shared<History>();
            history->record(*node.snapshot, now);
            recorded_[node.address] = node.snapshot;
        }
        next[node.address] = std::move(history);
    }
    histories_ = std::move(next);
}

void ClusterSampler::round(MonoTime started, CancelToken cancel) {
    {
        std::lock_guard lock(mutex_);
        source_->set_scope(RoundScope{true, focus_});  // the screen's sampler: what it draws
    }
    auto cluster = std::make_shared<const ClusterSnapshot>(source_->round(started + to_duration(interval_), cancel));
    if (cancel.requested()) return;
    record_histories(*cluster, mono_now());
    {
        std::lock_guard lock(mutex_);
        latest_ = std::move(cluster);
    }
    revision_.fetch_add(1, std::memory_order_acq_rel);
    const std::uint64_t one = 1;
    [[maybe_unused]] const ssize_t written = ::write(published_fd_.get(), &one, sizeof one);
}

}  // namespace musatop::cluster
