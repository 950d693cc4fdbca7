// What the cluster view knows about each node between rounds: answers become
// states (cluster.md §4), the last good snapshot is kept for stale and error rows.
// Pure: fetch outcomes in, a ClusterSnapshot out.
#pragma once

#include <string>
#include <vector>

#include "musatop/cluster/cluster_view.hpp"
#include "musatop/cluster/fetch_outcome.hpp"
#include "musatop/output/json_input.hpp"
#include "musatop/util/clock.hpp"

namespace musatop::cluster {

class ClusterTracker {
public:
    // `stale_after`: data older than this (no answer since) counts as stale.
    ClusterTracker(std::vector<std::string> addresses, Seconds stale_after);

    // A 304 keeps the node's last document as if it had come again. An answer
    // that cannot be used has its ETag cleared, so the next request is whole.
    void record(std::size_t node, FetchOutcome& outcome, WallTime now);
    void record(std::size_t node, FetchOutcome&& outcome, WallTime now) { record(node, outcome, now); }
    ClusterSnapshot view(WallTime now, ClusterOrigin source = ClusterOrigin::direct) const;
    std::size_t size() const { return nodes_.size(); }

private:
    std::vector<NodeView> nodes_;
    Seconds stale_after_;
    // One parser's buffers for every node's answers, held to the caps of cluster_view.hpp.
    JsonSnapshotReader reader_{JsonSnapshotReader::Limits{kMaxDevicesPerNode, kMaxProcessesPerNode}};
};

// "840 µs", "1.84 ms", "2.1 s": clustat's latency, microseconds under 1 ms.
std::string latency_text(double milliseconds);

}  // namespace musatop::cluster
