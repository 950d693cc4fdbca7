#include "musatop/cluster/direct_source.hpp"

#include "musatop/net/api.hpp"
#include "musatop/net/base64.hpp"
#include "musatop/output/json_input.hpp"

namespace musatop::cluster {

std::unique_ptr<net::HttpClient> make_node_client(const std::vector<NodeAddress>& nodes,
                                                  const FetchSettings& settings) {
    net::ClientSettings client;
    client.timeout = settings.timeout;
    client.max_body_bytes = settings.max_body_bytes;
    client.spare_bytes = kJsonPaddingBytes;  // the snapshot reader reads the answer where it lies
    client.ca_file = settings.ca_file;
    client.conditional = settings.conditional;
    std::vector<net::Route> routes;
    routes.reserve(nodes.size());
    for (const auto& node : nodes)
        routes.push_back(net::Route{net::Endpoint{node.https, node.host, node.port}, {}, {}});
    auto made = std::make_unique<net::HttpClient>(std::move(routes), std::move(client));
    net::Request request;
    request.target = std::string(net::kSnapshotPath);
    // No Accept-Encoding: gzip makes a 14 KB snapshot 1.8 KB but costs the node
    // ~200 µs to deflate and this view ~17 µs to inflate per answer, more than
    // parsing it (docs/PERFORMANCE.md); 14 KB a node a second is nothing on a
    // cluster network.
    request.headers = {{"User-Agent", "musatop-cluster"}, {"Accept", std::string(net::kJsonType)}};
    if (settings.user)
        request.headers.emplace_back("Authorization",
                                     net::basic_authorization(*settings.user, settings.password.value_or("")));
    for (std::size_t i = 0; i < nodes.size(); ++i) made->set_request(i, request);
    return made;
}

namespace {

std::vector<std::string> displays(const std::vector<NodeAddress>& nodes) {
    std::vector<std::string> out;
    out.reserve(nodes.size());
    for (const auto& node : nodes) out.push_back(node.display());
    return out;
}

}  // namespace

DirectSource::DirectSource(const std::vector<NodeAddress>& nodes, const FetchSettings& settings, Seconds stale_after)
    : client_(make_node_client(nodes, settings)), tracker_(displays(nodes), stale_after) {}

ClusterSnapshot DirectSource::round(MonoTime until, CancelToken cancel) {
    client_->round(until, cancel, [this](std::size_t index, net::ClientOutcome& outcome) {
        tracker_.record(index, outcome, wall_now());
    });
    return tracker_.view(wall_now(), ClusterOrigin::direct);
}

}  // namespace musatop::cluster
