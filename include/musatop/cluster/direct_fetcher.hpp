// Direct mode: every node's /api/v1/snapshot over HTTP(S), all at once through
// libcurl's multi interface (one thread, one poll over every socket, connections
// kept alive between rounds). A node whose request is still out is not asked
// again until it answers or times out, so a slow node never delays the others.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "musatop/cluster/cluster_feed.hpp"
#include "musatop/cluster/cluster_tracker.hpp"
#include "musatop/cluster/node_list.hpp"
#include "musatop/util/clock.hpp"

namespace musatop::cluster {

struct FetchSettings {
    Seconds timeout{3};  // per request, connection included
    std::optional<std::string> user;      // basic auth (--node-user)
    std::optional<std::string> password;  // from --node-password-file, never the command line
    std::optional<std::string> ca_file;   // --node-ca, for https:// nodes
    std::size_t max_body_bytes = 16 << 20;
};

class DirectFetcher {
public:
    DirectFetcher(std::vector<NodeAddress> nodes, FetchSettings settings);
    ~DirectFetcher();
    DirectFetcher(const DirectFetcher&) = delete;
    DirectFetcher& operator=(const DirectFetcher&) = delete;

    // Starts a request on every node without one out, then waits until all that
    // are out have finished, `until` passes, or `cancel_fd` becomes readable.
    // Each finished request goes to `done` (node index, outcome) as it finishes,
    // so a thousand answers are never held at once. The outcome is lent: its body's
    // buffer is kept for the node's next answer.
    void round(MonoTime until, int cancel_fd, const std::function<void(std::size_t, const FetchOutcome&)>& done);

    // Requests still out (slow nodes), for tests and the status line.
    std::size_t in_flight() const;

    struct State;  // libcurl's handles; public only so its callbacks can name it

private:
    std::unique_ptr<State> state_;
};

// Direct mode as a source of rounds: the fetcher's outcomes through a tracker.
class DirectSource final : public ClusterSource {
public:
    DirectSource(const std::vector<NodeAddress>& nodes, FetchSettings settings, Seconds stale_after);
    ClusterSnapshot round(MonoTime until, int cancel_fd) override;

private:
    DirectFetcher fetcher_;
    ClusterTracker tracker_;
};

}  // namespace musatop::cluster
