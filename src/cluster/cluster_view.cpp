#include "musatop/cluster/cluster_view.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <set>

#include "musatop/util/text.hpp"

namespace musatop::cluster {

const char* to_string(NodeState state) {
    switch (state) {
        case NodeState::ok: return "ok";
        case NodeState::stale: return "stale";
        case NodeState::unreachable: return "unreachable";
        case NodeState::error: return "error";
    }
    return "error";
}

const char* origin_name(ClusterOrigin origin) { return origin == ClusterOrigin::prometheus ? "prometheus" : "direct"; }

bool ClusterSnapshot::all_ok() const {
    return errors.empty() &&
           std::all_of(nodes.begin(), nodes.end(), [](const NodeView& n) { return n.state == NodeState::ok; });
}

Result<NodeFilter> NodeFilter::parse(std::string_view text) {
    NodeFilter filter;
    filter.text_ = std::string(text);
    for (const auto& word : split_node_list(text)) {
        if (word.find('[') == std::string::npos) {
            filter.patterns_.push_back(word);
            continue;
        }
        auto hosts = expand_hostlist(word);
        if (!hosts.ok()) return Error{"-n: " + hosts.error()};
        for (auto& host : hosts.value()) filter.patterns_.push_back("=" + host);  // exact names
    }
    return filter;
}

bool NodeFilter::matches(const NodeView& node) const {
    if (patterns_.empty()) return true;
    std::vector<std::string> names = {node.address};
    if (node.hostname) names.push_back(*node.hostname);
    const auto colon = node.address.rfind(':');
    if (colon != std::string::npos) names.push_back(node.address.substr(0, colon));  // the host part
    for (const auto& pattern : patterns_)
        for (const auto& name : names) {
            if (pattern.front() == '=') {
                if (name == pattern.substr(1)) return true;
            } else if (pattern.find_first_of("*?") != std::string::npos) {
                if (::fnmatch(pattern.c_str(), name.c_str(), 0) == 0) return true;
            } else if (name.find(pattern) != std::string::npos) {
                return true;
            }
        }
    return false;
}

Snapshot node_view(const Snapshot& snapshot, const ViewFilter& filter) {
    Snapshot view = apply_view(snapshot, filter);
    if (filter.users.empty()) return view;
    std::set<std::int64_t> used;
    for (const auto& p : view.processes) used.insert(p.device_index);
    std::erase_if(view.devices, [&](const Device& d) { return !used.count(d.index); });
    return view;
}

std::shared_ptr<const Snapshot> shared_node_view(const std::shared_ptr<const Snapshot>& snapshot,
                                                 const ViewFilter& filter) {
    if (!snapshot) return nullptr;
    const Snapshot& s = *snapshot;
    const auto in_order = [&](const GpuProcess& a, const GpuProcess& b) {
        return process_before(a, b, filter.sort, filter.reverse);
    };
    // The sort is stable, so sorted input comes out as it went in.
    const bool unchanged =
        filter.users.empty() &&
        std::all_of(s.devices.begin(), s.devices.end(), [&](const Device& d) { return device_visible(d, filter); }) &&
        std::all_of(s.processes.begin(), s.processes.end(),
                    [&](const GpuProcess& p) { return process_visible(p, filter); }) &&
        std::is_sorted(s.processes.begin(), s.processes.end(), in_order);
    if (unchanged) return snapshot;
    return std::make_shared<const Snapshot>(node_view(s, filter));
}

ClusterSnapshot filtered(const ClusterSnapshot& cluster, const NodeFilter& filter) {
    ClusterSnapshot out = cluster;
    std::erase_if(out.nodes, [&](const NodeView& n) { return !filter.matches(n); });
    return out;
}

}  // namespace musatop::cluster
