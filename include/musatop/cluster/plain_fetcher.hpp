// Direct mode's own HTTP/1.1 client for plain http:// nodes: one epoll set, one
// non-blocking keep-alive connection per node, names resolved without blocking
// (getaddrinfo_a), every address of a name tried in turn, a request on a kept
// connection the node has meanwhile closed sent again once on a new one.
// Per request it makes one send and one or two receives; libcurl's multi
// interface also polls each socket three times and spends ~2x the CPU
// (docs/PERFORMANCE.md), which over 256 nodes a second was half the screen's cost.
#pragma once

#include <memory>

#include "musatop/cluster/direct_fetcher.hpp"

namespace musatop::cluster {

class PlainFetcher final : public NodeFetcher {
public:
    PlainFetcher(std::vector<NodeAddress> nodes, FetchSettings settings);
    ~PlainFetcher() override;
    PlainFetcher(const PlainFetcher&) = delete;
    PlainFetcher& operator=(const PlainFetcher&) = delete;

    void round(MonoTime until, int cancel_fd, const Done& done) override;
    std::size_t in_flight() const override;

    struct State;

private:
    std::unique_ptr<State> state_;
};

}  // namespace musatop::cluster
