// The cluster view's flags (docs/cluster.md): one table for the options that take
// a text, so each flag's name, help and argument are written once.
#include <CLI/CLI.hpp>

#include "musatop/cli/options.hpp"

namespace musatop::cli {
namespace {

struct TextFlag {
    const char* names;
    std::optional<std::string> ClusterOptions::*member;
    const char* type;
    const char* help;
};

constexpr TextFlag kTextFlags[] = {
    {"--nodes", &ClusterOptions::nodes, "LIST",
     "Nodes running musatop serve: host[:port], hostlists gpu[01-16] (or MUSATOP_NODES)"},
    {"--nodes-file", &ClusterOptions::nodes_file, "FILE", "Nodes from FILE, one or more per line, # comments"},
    {"-n,--node", &ClusterOptions::node_filter, "FILTER",
     "Only nodes matching: names, wildcards, hostlists, comma-separated"},
    {"--node-user", &ClusterOptions::node_user, "USER", "Basic-auth user for the nodes"},
    {"--node-password-file", &ClusterOptions::node_password_file, "FILE",
     "Its password, from FILE (never the command line)"},
    {"--node-ca", &ClusterOptions::node_ca, "FILE", "CA certificates for https:// nodes"},
    {"--prometheus", &ClusterOptions::prometheus, "URL", "Read the nodes from this Prometheus instead"},
    {"--prometheus-user", &ClusterOptions::prometheus_user, "USER", "Basic-auth user for Prometheus"},
    {"--prometheus-password-file", &ClusterOptions::prometheus_password_file, "FILE", "Its password, from FILE"},
    {"--prometheus-bearer-token-file", &ClusterOptions::prometheus_bearer_token_file, "FILE",
     "A bearer token, from FILE"},
    {"--prometheus-ca", &ClusterOptions::prometheus_ca, "FILE", "CA certificates for an https:// Prometheus"},
    {"--prometheus-selector", &ClusterOptions::prometheus_selector, "MATCHERS",
     "Extra label matchers for every query, e.g. 'cluster=\"a\"'"},
    {"--prometheus-header-file", &ClusterOptions::prometheus_header_file, "FILE",
     "Headers for every request, 'Name: value' lines (Mimir's X-Scope-OrgID)"},
    {"--prometheus-node-label", &ClusterOptions::prometheus_node_label, "LABEL",
     "Group series into nodes by this label (default: instance)"},
    {"--prometheus-scrape-interval", &ClusterOptions::prometheus_scrape_interval, "SECONDS",
     "The scrape interval to assume where the store has no /api/v1/targets (Thanos, VictoriaMetrics)"},
};

}  // namespace

void declare_cluster(CLI::App& app, ClusterOptions& c) {
    const auto group = "Cluster view (docs/cluster.md)";
    for (const auto& flag : kTextFlags)
        app.add_option(flag.names, c.*flag.member, flag.help)->type_name(flag.type)->group(group);
    app.add_option("--prometheus-job", c.prometheus_job, "The scrape job of the agents (default: musatop)")
        ->type_name("NAME")
        ->group(group);
    app.add_flag("--show-pid", c.text.show_pid, "--once: user/pid(memory) for each process")->group(group);
    app.add_flag("--show-cmd", c.text.show_cmd, "--once: user:command(memory) for each process")->group(group);
    app.add_flag("--no-processes", c.text.no_processes, "--once: no process column")->group(group);
}

}  // namespace musatop::cli
