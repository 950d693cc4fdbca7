// What the cluster view reads from other machines and from the command line:
// node lists and filters, Prometheus answers and target lists, and the HTTP
// answers of plain http:// nodes (whole, and in pieces as a socket gives them).
#include <cstdint>
#include <cstdlib>
#include <string>

#include "musatop/net/http_response.hpp"
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
    constexpr std::size_t kMaxBody = 4096;
    net::HttpResponseReader reader(kMaxBody);
    const std::size_t step = size > 0 ? 1 + data[0] % 64 : 1;
    for (const std::size_t piece : {text.size() + 1, step}) {
        reader.reset();
        for (std::size_t at = 0; at < text.size() && reader.state() == net::HttpResponseReader::Progress::reading;
             at += piece)
            reader.feed(std::string_view(text).substr(at, piece));
        reader.end_of_input();
        if (reader.body().size() > kMaxBody) std::abort();
        if (reader.state() == net::HttpResponseReader::Progress::failed && reader.error().empty()) std::abort();
    }
    return 0;
}
