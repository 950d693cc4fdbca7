// Direct mode: every node's /api/v1/snapshot at once over the net layer's client
// (one epoll set, one keep-alive connection per node, http:// and https:// nodes
// in one list). A node whose request is still out is not asked again until it
// answers or times out, so a slow node never delays the others. Requests are
// conditional: a node whose frame has not changed answers 304 and its last
// document is kept, neither moved nor parsed again.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "musatop/cluster/cluster_sampler.hpp"
#include "musatop/cluster/cluster_tracker.hpp"
#include "musatop/cluster/node_list.hpp"
#include "musatop/net/http_client.hpp"

namespace musatop::cluster {

struct FetchSettings {
    Seconds timeout{3};                   // per request, connection included
    std::optional<std::string> user;      // basic auth (--node-user)
    std::optional<std::string> password;  // from --node-password-file, never the command line
    std::optional<std::string> ca_file;   // --node-ca, for https:// nodes
    std::size_t max_body_bytes = 16 << 20;
    bool conditional = true;  // If-None-Match with each node's last ETag (off only to measure what it saves)
};

// The client for `nodes`: requests for /api/v1/snapshot, never through a proxy
// (a login node's http_proxy is for the outside world, not for its cluster).
std::unique_ptr<net::HttpClient> make_node_client(const std::vector<NodeAddress>& nodes, const FetchSettings& settings);

class DirectSource final : public ClusterSource {
public:
    DirectSource(const std::vector<NodeAddress>& nodes, const FetchSettings& settings, Seconds stale_after);
    ClusterSnapshot round(MonoTime until, CancelToken cancel) override;

private:
    std::unique_ptr<net::HttpClient> client_;
    ClusterTracker tracker_;
};

}  // namespace musatop::cluster
