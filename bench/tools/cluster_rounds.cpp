// Rounds per second of the cluster sampler in direct mode, for bench/cluster:
//   cluster-rounds NODE_LIST INTERVAL_SECONDS SECONDS
// and the queries Prometheus mode sends, so the bench times the real ones:
//   cluster-rounds --query JOB                  every series (--json)
//   cluster-rounds --query JOB screen [NODE]    the screen's (and the drill-down's into NODE)
#include <cstdio>
#include <cstdlib>
#include <thread>

#include <cstring>

#include "musatop/cluster/direct_source.hpp"
#include "musatop/cluster/prometheus_source.hpp"

int main(int argc, char** argv) {
    using namespace musatop;
    if (argc >= 3 && argc <= 5 && std::strcmp(argv[1], "--query") == 0) {
        cluster::RoundScope scope;
        scope.screen_only = argc >= 4 && std::strcmp(argv[3], "screen") == 0;
        if (argc == 5) scope.focus = argv[4];
        std::printf("%s\n", cluster::cluster_query(argv[2], scope).c_str());
        return 0;
    }
    if (argc != 4) {
        std::fprintf(stderr, "usage: cluster-rounds NODE_LIST INTERVAL_SECONDS SECONDS\n");
        return 2;
    }
    const auto nodes = cluster::parse_node_list(argv[1]);
    if (!nodes.ok()) {
        std::fprintf(stderr, "%s\n", nodes.error().c_str());
        return 2;
    }
    const Seconds interval(std::atof(argv[2]));
    const Seconds run_for(std::atof(argv[3]));
    cluster::ClusterSampler sampler(std::make_unique<cluster::DirectSource>(nodes.value(), cluster::FetchSettings{},
                                                                            Seconds(10)),
                                    interval);
    sampler.start();
    std::this_thread::sleep_for(std::chrono::duration_cast<std::chrono::milliseconds>(Seconds(1)));
    const auto first = sampler.revision();
    std::this_thread::sleep_for(std::chrono::duration_cast<std::chrono::milliseconds>(run_for));
    const auto rounds = sampler.revision() - first;
    std::size_t ok = 0;
    for (const auto& node : sampler.latest()->nodes) ok += node.state == cluster::NodeState::ok;
    std::printf("%zu nodes, interval %.2f s: %.1f rounds/s over %.0f s, %zu ok in the last round\n",
                nodes->size(), interval.count(), static_cast<double>(rounds) / run_for.count(), run_for.count(), ok);
    return 0;
}
