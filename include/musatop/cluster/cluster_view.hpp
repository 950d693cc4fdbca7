// The cluster as the outputs see it: one entry per node with its state, its last
// good snapshot and why it is not fresh. Built by ClusterTracker from fetch
// outcomes (direct mode) or from a Prometheus answer.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "musatop/cluster/node_list.hpp"
#include "musatop/model/snapshot.hpp"
#include "musatop/model/view_filter.hpp"

namespace musatop::cluster {

// ok: fresh and the node reports nothing stale. stale: this round failed or the
// node reports stale sources; the snapshot is the last good one. unreachable:
// never reached. error: reached, but the answer was unusable.
enum class NodeState { ok, stale, unreachable, error };

const char* to_string(NodeState state);

struct NodeView {
    std::string address;                  // NodeAddress::display(), or a Prometheus instance
    std::optional<std::string> hostname;  // host.hostname of its snapshot
    NodeState state = NodeState::unreachable;
    std::optional<double> latency_ms;          // of the last answer
    std::optional<std::string> error;          // one line whenever state is not ok
    std::optional<WallTime> fetched_at;        // when `snapshot` was fetched
    std::shared_ptr<const Snapshot> snapshot;  // last good; null until one arrived
    // Something to do about an ok node, shown after its header: through Prometheus,
    // "its processes are not exported (musatop serve --process-metrics)".
    std::optional<std::string> hint;
};

// Where a cluster view comes from: the nodes asked directly, or Prometheus.
enum class ClusterOrigin { direct, prometheus };
const char* origin_name(ClusterOrigin origin);  // "direct", "prometheus": the cluster JSON's "source"

struct ClusterSnapshot {
    WallTime sampled_at{};
    ClusterOrigin source = ClusterOrigin::direct;
    std::vector<NodeView> nodes;
    std::optional<std::string> note;  // e.g. why processes are missing (Prometheus)
    std::vector<std::string> errors;  // of the source itself (Prometheus cannot be asked)
    bool all_ok() const;
};

// `-n/--node`: comma-separated patterns; brackets expand, * and ? are wildcards,
// a plain word is a substring. Matched against the hostname and the address.
class NodeFilter {
public:
    static Result<NodeFilter> parse(std::string_view text);
    bool matches(const NodeView& node) const;
    bool empty() const { return patterns_.empty(); }
    const std::string& text() const { return text_; }

private:
    std::vector<std::string> patterns_;
    std::string text_;
};

// A node's snapshot through the filters: --gpu, --pid, --sort, --reverse as on one
// host; with --user only the GPUs that hold a process of the user.
Snapshot node_view(const Snapshot& snapshot, const ViewFilter& filter);

// The same, sharing the node's snapshot when the filters keep every row in its
// order (the usual case: a screen over hundreds of nodes copies none of them).
std::shared_ptr<const Snapshot> shared_node_view(const std::shared_ptr<const Snapshot>& snapshot,
                                                 const ViewFilter& filter);

// The nodes the node filter keeps, in order.
ClusterSnapshot filtered(const ClusterSnapshot& cluster, const NodeFilter& filter);

// What one node may bring, in either mode (docs/cluster.md): a real 8-GPU
// snapshot is ~14 KB; past these the node is an `error`, so one hostile answer
// cannot take the view's memory.
inline constexpr std::size_t kMaxDevicesPerNode = 1024;
inline constexpr std::size_t kMaxProcessesPerNode = 16384;

// One line, at most 200 bytes: texts from other machines, in node errors.
std::string one_line(std::string text);

}  // namespace musatop::cluster
