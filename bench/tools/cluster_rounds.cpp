// Rounds per second of the cluster sampler in direct mode, for bench/cluster:
//   cluster-rounds NODE_LIST INTERVAL_SECONDS SECONDS
// and the queries Prometheus mode sends, so the bench times the real ones:
//   cluster-rounds --query JOB                  every series (--json)
//   cluster-rounds --query JOB screen [NODE]    the screen's (and the drill-down's into NODE)
// and what conditional requests save against agents that sample slower than the view asks:
//   cluster-rounds --conditional NODE_LIST INTERVAL_SECONDS SECONDS
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <thread>

#include <cstring>

#include "musatop/cluster/direct_source.hpp"
#include "musatop/cluster/prometheus_source.hpp"
#include "musatop/output/json_input.hpp"

namespace {

double cpu_seconds() {
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

// Rounds at `interval` for `run_for` with and without If-None-Match: the share of
// 304s, the body bytes moved and the CPU of this process.
int conditional_share(const char* list, double interval, double run_for) {
    using namespace musatop;
    const auto nodes = cluster::parse_node_list(list);
    if (!nodes.ok()) return std::fprintf(stderr, "%s\n", nodes.error().c_str()), 2;
    for (const bool conditional : {true, false}) {
        cluster::FetchSettings settings;
        settings.conditional = conditional;
        const auto client = cluster::make_node_client(nodes.value(), settings);
        JsonSnapshotReader reader;
        std::size_t answers = 0, not_modified = 0, bytes = 0;
        const double cpu_before = cpu_seconds();
        const auto end = std::chrono::steady_clock::now() +
                         std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(run_for));
        while (std::chrono::steady_clock::now() < end) {
            const auto next = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::nanoseconds>(
                                                                     std::chrono::duration<double>(interval));
            client->round(next, CancelToken{}, [&](std::size_t, net::ClientOutcome& outcome) {
                ++answers;
                not_modified += outcome.http_status == 304;
                bytes += outcome.body.size();
                if (outcome.http_status == 200) (void)reader.read(outcome.body);  // what the view does with it
            });
            std::this_thread::sleep_until(next);
        }
        const double cpu = cpu_seconds() - cpu_before;
        std::printf("%-13s %zu answers, %.1f %% 304, %.0f KB/s of bodies, %.2f %% of a core\n",
                    conditional ? "conditional:" : "whole:", answers,
                    answers ? 100.0 * static_cast<double>(not_modified) / static_cast<double>(answers) : 0.0,
                    static_cast<double>(bytes) / 1000 / run_for, 100 * cpu / run_for);
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace musatop;
    if (argc == 5 && std::strcmp(argv[1], "--conditional") == 0)
        return conditional_share(argv[2], std::atof(argv[3]), std::atof(argv[4]));
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
    cluster::ClusterSampler sampler(
        std::make_unique<cluster::DirectSource>(nodes.value(), cluster::FetchSettings{}, Seconds(10)), interval);
    sampler.start();
    std::this_thread::sleep_for(std::chrono::duration_cast<std::chrono::milliseconds>(Seconds(1)));
    const auto first = sampler.revision();
    std::this_thread::sleep_for(std::chrono::duration_cast<std::chrono::milliseconds>(run_for));
    const auto rounds = sampler.revision() - first;
    std::size_t ok = 0;
    for (const auto& node : sampler.latest()->nodes) ok += node.state == cluster::NodeState::ok;
    std::printf("%zu nodes, interval %.2f s: %.1f rounds/s over %.0f s, %zu ok in the last round\n", nodes->size(),
                interval.count(), static_cast<double>(rounds) / run_for.count(), run_for.count(), ok);
    return 0;
}
