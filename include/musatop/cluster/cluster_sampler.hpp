// The cluster screen's source of data: a background thread that runs rounds
// (direct fetches or a Prometheus query) and publishes immutable ClusterSnapshots,
// plus the frames of one node for the drill-down screen.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "musatop/cluster/cluster_view.hpp"
#include "musatop/model/history.hpp"
#include "musatop/sampler/frame.hpp"
#include "musatop/sampler/round_loop.hpp"
#include "musatop/util/cancel.hpp"
#include "musatop/util/unique_fd.hpp"

namespace musatop::cluster {

// What the reader of the next rounds will look at. A source that can fetch less
// (Prometheus: the query names the series) asks only for that; one that gets whole
// snapshots anyway (direct) ignores it.
struct RoundScope {
    bool screen_only = false;          // only the values the cluster screen and --once draw,
    std::optional<std::string> focus;  // plus every value of this node (the drill-down)
};

// One round of the whole cluster; returns early when `cancel` is requested.
class ClusterSource {
public:
    virtual ~ClusterSource() = default;
    virtual ClusterSnapshot round(MonoTime until, CancelToken cancel) = 0;
    virtual void set_scope(const RoundScope& /*scope*/) {}
};

class ClusterSampler {
public:
    // Histories (the drill-down's trends) are kept for every node up to this many
    // nodes, else only for the node in focus: 5 minutes of 8 GPUs is about 150 KB.
    static constexpr std::size_t kHistoryForAllNodes = 64;

    ClusterSampler(std::unique_ptr<ClusterSource> source, Seconds interval);
    ~ClusterSampler();  // stops the thread; a round in progress is cancelled
    ClusterSampler(const ClusterSampler&) = delete;
    ClusterSampler& operator=(const ClusterSampler&) = delete;

    void start();
    std::shared_ptr<const ClusterSnapshot> latest() const;
    std::uint64_t revision() const { return revision_.load(std::memory_order_acquire); }
    int publication_fd() const { return published_fd_.get(); }  // readable after each round
    void request_refresh();
    Seconds interval() const { return interval_; }

    // The node whose history is kept even in big clusters and whose every value is
    // fetched (the drill-down's); a new focus starts a round at once.
    void set_focus(std::optional<std::string> address);
    // The node's newest snapshot (marked remote: never signalled) and its history.
    Frame node_frame(const std::string& address) const;

private:
    void round(MonoTime started, CancelToken cancel);
    void record_histories(const ClusterSnapshot& cluster, MonoTime now);

    std::unique_ptr<ClusterSource> source_;
    Seconds interval_;
    UniqueFd published_fd_;
    mutable std::mutex mutex_;
    std::shared_ptr<const ClusterSnapshot> latest_;
    std::optional<std::string> focus_;
    std::map<std::string, std::shared_ptr<History>> histories_;  // by address; copied only while a reader holds one
    std::map<std::string, std::shared_ptr<const Snapshot>> recorded_;  // the snapshot each history last saw
    std::atomic<std::uint64_t> revision_{0};
    RoundLoop loop_;  // last: stopped and joined before the members its rounds use go
};

}  // namespace musatop::cluster
