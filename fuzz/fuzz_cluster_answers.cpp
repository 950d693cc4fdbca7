// What the cluster view reads from other machines and from the command line:
// node lists and filters, Prometheus answers and target lists.
#include <cstdint>
#include <string>

#include "musatop/cluster/node_list.hpp"
#include "musatop/cluster/prometheus_source.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace musatop;
    const std::string text(reinterpret_cast<const char*>(data), size);
    (void)cluster::parse_node_list(text);
    (void)cluster::parse_nodes_file(text);
    if (auto filter = cluster::NodeFilter::parse(text); filter.ok()) {
        cluster::NodeView node;
        node.address = "gpu01:9499";
        node.hostname = "gpu01";
        (void)filter->matches(node);
    }
    (void)cluster::cluster_from_prometheus(text, WallTime(std::chrono::seconds(1800000000)), Seconds(15), {});
    (void)cluster::parse_targets(text, "musatop");
    return 0;
}
