#include "musatop/cluster/cluster_tracker.hpp"

#include <cmath>
#include <cstdio>

#include "musatop/util/text.hpp"

namespace musatop::cluster {
namespace {

std::string why_unusable(const std::string& body, const std::string& parse_error) {
    const auto start = text::trim(body);
    if (start.empty()) return "an empty answer, not a musatop snapshot";
    if (start.front() == '<') return "answered HTML, not a musatop snapshot";
    return "not a musatop snapshot: " + parse_error;
}

// A node with a fresh document: ok, or stale as the node itself says.
void settle(NodeView& node) {
    if (node.snapshot->any_stale()) {
        node.state = NodeState::stale;
        node.error = one_line("the node reports stale data" +
                              (node.snapshot->errors.empty() ? std::string() : ": " + node.snapshot->errors.front()));
    } else {
        node.state = NodeState::ok;
        node.error.reset();
    }
}

}  // namespace

std::string one_line(std::string text) {
    for (char& c : text)
        if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    if (text.size() > 200) text = text.substr(0, 200) + "...";
    return std::string(text::trim(text));
}

ClusterTracker::ClusterTracker(std::vector<std::string> addresses, Seconds stale_after) : stale_after_(stale_after) {
    for (auto& address : addresses) {
        NodeView node;
        node.address = std::move(address);
        node.error = "not reached yet";
        nodes_.push_back(std::move(node));
    }
}

void ClusterTracker::record(std::size_t index, FetchOutcome& outcome, WallTime now) {
    NodeView& node = nodes_.at(index);
    if (!outcome.answered) {
        // cluster.md §4: a node that answered unusably (cut short, not HTTP, over
        // the size cap) was reached; its answer is the error, not the network.
        node.state = outcome.reached ? NodeState::error : node.snapshot ? NodeState::stale : NodeState::unreachable;
        node.error = one_line(outcome.failure);
        return;
    }
    node.latency_ms = outcome.seconds * 1000;
    if (outcome.http_status == 304 && node.snapshot) {  // the same frame as last time
        node.fetched_at = now;
        return settle(node);
    }
    if (outcome.http_status != 200) {
        node.state = NodeState::error;
        node.error = "HTTP status " + std::to_string(outcome.http_status);
        // A TLS agent (exporter-toolkit's answer, and musatop serve's) named http://.
        if (outcome.http_status == 400 && outcome.body.find("HTTP request to an HTTPS server") != std::string::npos)
            node.error = "it answered as an https:// server: name it https://" + node.address;
        return;
    }
    auto parsed = reader_.read(outcome.body);
    if (!parsed.ok()) {
        outcome.etag.clear();
        node.state = NodeState::error;
        node.error = one_line(why_unusable(outcome.body, parsed.error()));
        return;
    }
    node.snapshot = std::make_shared<const Snapshot>(std::move(parsed.value()));
    node.fetched_at = now;
    node.hostname = node.snapshot->host.hostname;
    settle(node);
}

ClusterSnapshot ClusterTracker::view(WallTime now, ClusterOrigin source) const {
    ClusterSnapshot cluster;
    cluster.sampled_at = now;
    cluster.source = source;
    cluster.nodes = nodes_;
    for (auto& node : cluster.nodes) {
        // A request still out (a slow node is not asked again until it answers).
        if (node.state == NodeState::ok && node.fetched_at && now - *node.fetched_at > stale_after_) {
            node.state = NodeState::stale;
            char text[64];
            std::snprintf(text, sizeof text, "no answer for %.1f s", Seconds(now - *node.fetched_at).count());
            node.error = text;
        }
    }
    return cluster;
}

std::string latency_text(double ms) {
    char text[32];
    if (ms < 1) std::snprintf(text, sizeof text, "%.0f \xc2\xb5s", ms * 1000);
    else if (ms < 1000) std::snprintf(text, sizeof text, "%.2f ms", ms);
    else std::snprintf(text, sizeof text, "%.1f s", ms / 1000);
    return text;
}

}  // namespace musatop::cluster
