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

// A failed request's reason as every fetcher words it: "connection refused"
// (strerror, lower case), "timed out after 3.0 s".
std::string os_error_text(int error);
std::string timeout_text(double seconds);

// What fetches every node's snapshot, one request per node at a time.
class NodeFetcher {
public:
    using Done = std::function<void(std::size_t, const FetchOutcome&)>;
    virtual ~NodeFetcher() = default;
    // Starts a request on every node without one out, then waits until all that
    // are out have finished, `until` passes, or `cancel_fd` becomes readable.
    // Each finished request goes to `done` (node index, outcome) as it finishes,
    // so a thousand answers are never held at once. The outcome is lent: its body's
    // buffer is kept for the node's next answer.
    virtual void round(MonoTime until, int cancel_fd, const Done& done) = 0;
    // Requests still out (slow nodes), for tests and the status line.
    virtual std::size_t in_flight() const = 0;
};

// Plain http:// clusters get musatop's own HTTP/1.1 client (plain_fetcher.hpp),
// which costs half of libcurl's CPU per request; any https:// node puts the whole
// list on libcurl, for its TLS.
std::unique_ptr<NodeFetcher> make_node_fetcher(std::vector<NodeAddress> nodes, FetchSettings settings);

// libcurl's multi interface.
class DirectFetcher final : public NodeFetcher {
public:
    DirectFetcher(std::vector<NodeAddress> nodes, FetchSettings settings);
    ~DirectFetcher() override;
    DirectFetcher(const DirectFetcher&) = delete;
    DirectFetcher& operator=(const DirectFetcher&) = delete;

    void round(MonoTime until, int cancel_fd, const Done& done) override;
    std::size_t in_flight() const override;

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
    std::unique_ptr<NodeFetcher> fetcher_;
    ClusterTracker tracker_;
};

}  // namespace musatop::cluster
