#include "musatop/cli/cluster_command.hpp"
#include "musatop/util/fd_limit.hpp"
#include "musatop/util/stdout_writer.hpp"
#include "musatop/cli/one_shot.hpp"

#include <sys/resource.h>
#include <sys/stat.h>

#include <algorithm>
#include <unordered_set>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>

#include "musatop/cluster/cluster_output.hpp"
#include "musatop/cluster/cluster_tracker.hpp"
#include "musatop/cluster/direct_source.hpp"
#include "musatop/net/endpoint.hpp"
#include "musatop/cluster/node_list.hpp"
#include "musatop/cluster/prometheus_source.hpp"
#include "musatop/cli/screen_settings.hpp"
#include "musatop/tui/cluster/cluster_app.hpp"
#include "musatop/output/sanitize.hpp"

namespace musatop::cli {
namespace {

struct UsageProblem {
    std::string message;
};

std::string read_file_or_throw(const std::string& flag, const std::string& path) {
    std::ifstream file(path);
    if (!file) throw UsageProblem{"argument " + flag + ": cannot read " + path};
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

// A secret file's first line, without its line end. As ssh does with private
// keys, a regular file that other users may read or change is refused: a password
// there is no longer a secret, and one they can write is not ours.
std::string secret_from(const std::string& flag, const std::string& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) && (info.st_mode & 077) != 0) {
        char mode[8];
        std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(info.st_mode & 07777));
        throw UsageProblem{"argument " + flag + ": " + path + " has mode " + mode +
                           ", so other users can read or change it; make it private (chmod 600 " + path + ")"};
    }
    std::string secret = read_file_or_throw(flag, path);
    secret = secret.substr(0, secret.find_first_of("\r\n"));
    if (secret.empty()) throw UsageProblem{"argument " + flag + ": " + path + " is empty"};
    return secret;
}

// Basic auth over plain http:// shows the password to anyone on the path; said
// once per run, before the first request, with the way out.
void warn_if_clear_text(const std::vector<cluster::NodeAddress>& nodes, const cluster::FetchSettings& settings) {
    if (!settings.password) return;
    const auto plain = std::count_if(nodes.begin(), nodes.end(), [](const auto& node) { return !node.https; });
    if (plain == 0) return;
    std::cerr << "musatop: warning: --node-user sends its password unencrypted to " << plain << " http:// node"
              << (plain == 1 ? "" : "s") << "; give the agents a TLS certificate (--web-config-file, docs/serve.md) "
              << "and name them https://host:port\n";
}

std::vector<cluster::NodeAddress> nodes_of(const ClusterOptions& c) {
    std::vector<cluster::NodeAddress> nodes;
    std::unordered_set<std::string> seen;  // a std::find per node was quadratic: 13.6 s for 100,000
    const auto add = [&](const std::string& flag, Result<std::vector<cluster::NodeAddress>> parsed) {
        if (!parsed.ok()) throw UsageProblem{"argument " + flag + ": " + parsed.error()};
        for (auto& node : parsed.value())
            if (seen.insert(node.display()).second) nodes.push_back(std::move(node));
    };
    if (c.nodes) add("--nodes", cluster::parse_node_list(*c.nodes));
    if (c.nodes_file) add("--nodes-file", cluster::parse_nodes_file(read_file_or_throw("--nodes-file", *c.nodes_file)));
    if (nodes.empty()) throw UsageProblem{"argument --nodes: no nodes given"};
    return nodes;
}

cluster::FetchSettings fetch_settings(const Options& options) {
    const ClusterOptions& c = options.cluster;
    cluster::FetchSettings settings;
    settings.timeout = Seconds(options.timeout_seconds);
    settings.user = c.node_user;
    if (c.node_password_file) settings.password = secret_from("--node-password-file", *c.node_password_file);
    if (c.node_ca) {
        read_file_or_throw("--node-ca", *c.node_ca);
        settings.ca_file = c.node_ca;
    }
    return settings;
}

// The cluster screen over either source; `refresh_note` says where the data comes from.
int run_cluster_screen(const Options& options, std::unique_ptr<cluster::ClusterSource> source,
                       const cluster::NodeFilter& nodes, const std::string& refresh_note) {
    cluster::ClusterSampler sampler(std::move(source), Seconds(options.interval_seconds));
    tui::ClusterTuiSettings settings;
    settings.filter = options.filter;
    settings.nodes = nodes;
    settings.ascii = options.ascii;
    settings.free = options.cluster.free;
    settings.refresh_note = refresh_note;
    settings.node_screen = screen_settings(options, std::nullopt);
    return tui::run_cluster_tui(settings, sampler);
}

int print_once(const Options& options, const cluster::ClusterSnapshot& view);

cluster::TextOptions text_options(const Options& options) {
    cluster::TextOptions text{options.cluster.text, options.cluster.free, options.cluster.no_latency};
    text.style.paint = text_paint(options);
    return text;
}

// One round printed, or with --interval/--count a stream of them (cli/stream.hpp).
int print_rounds(const Options& options, const std::function<cluster::ClusterSnapshot(const CancelToken&)>& round) {
    if (!options.repeat) return print_once(options, round(CancelToken{}));
    const cluster::TextOptions text = text_options(options);
    return run_stream(stream_settings(options), [&](const CancelToken& cancel) {
        const auto view = round(cancel);
        std::ostringstream out;
        if (options.json) cluster::write_cluster_json(out, view, options.filter, options.cluster.free, true);
        else out << cluster::render_cluster_text(view, options.filter, text);
        return StreamSample{out.str(), !view.all_ok()};
    });
}

// What big clusters' stores need: more matchers, tenant headers, another node
// label, an interval where the targets API is missing (checked before any request).
void store_settings(const ClusterOptions& c, cluster::PrometheusSettings& settings) {
    if (c.prometheus_selector) {
        if (auto problem = cluster::selector_problem(*c.prometheus_selector))
            throw UsageProblem{"argument --prometheus-selector: " + *problem};
        settings.selection.matchers = *c.prometheus_selector;
    }
    if (c.prometheus_node_label) {
        if (!cluster::valid_label_name(*c.prometheus_node_label))
            throw UsageProblem{"argument --prometheus-node-label: '" + *c.prometheus_node_label +
                               "' is not a label name"};
        settings.selection.node_label = *c.prometheus_node_label;
    }
    if (c.prometheus_header_file) {
        auto headers =
            cluster::parse_header_lines(read_file_or_throw("--prometheus-header-file", *c.prometheus_header_file));
        if (!headers.ok())
            throw UsageProblem{"--prometheus-header-file " + *c.prometheus_header_file + ": " + headers.error()};
        settings.headers = headers.value();
    }
    if (c.prometheus_scrape_interval) {
        const auto& text = *c.prometheus_scrape_interval;
        auto seconds = cluster::parse_prometheus_duration(text);
        if (!seconds) {
            char* end = nullptr;
            const double number = std::strtod(text.c_str(), &end);
            if (end != text.c_str() && !*end) seconds = Seconds(number);
        }
        if (!seconds || !(seconds->count() >= 0.1 && seconds->count() <= 3600))
            throw UsageProblem{
                "argument --prometheus-scrape-interval: expected 0.1 to 3600 seconds or a duration "
                "such as 30s, got '" +
                text + "'"};
        settings.assumed_scrape_interval = seconds;
    }
}

int run_prometheus(const Options& options, const cluster::NodeFilter& filter, bool interactive) {
    const ClusterOptions& c = options.cluster;
    cluster::PrometheusSettings settings;
    auto url = net::parse_url(*c.prometheus, "argument --prometheus");
    if (!url.ok()) throw UsageProblem{url.error()};
    settings.url = url.value();
    settings.job = c.prometheus_job;
    settings.timeout = Seconds(options.timeout_seconds);
    if (c.prometheus_user.has_value() != c.prometheus_password_file.has_value())
        throw UsageProblem{"--prometheus-user and --prometheus-password-file go together"};
    settings.user = c.prometheus_user;
    if (c.prometheus_password_file)
        settings.password = secret_from("--prometheus-password-file", *c.prometheus_password_file);
    if (c.prometheus_bearer_token_file)
        settings.bearer_token = secret_from("--prometheus-bearer-token-file", *c.prometheus_bearer_token_file);
    if (c.prometheus_ca) {
        read_file_or_throw("--prometheus-ca", *c.prometheus_ca);
        settings.ca_file = c.prometheus_ca;
    }
    store_settings(c, settings);
    auto made = cluster::PrometheusSource::make(settings);
    if (!made.ok()) throw UsageProblem{made.error()};
    auto source = std::move(made.value());
    if (interactive)  // said once (it read "prometheus from Prometheus")
        return run_cluster_screen(options, std::move(source), filter,
                                  "from Prometheus: the data changes once per scrape interval");
    if (!options.json) source->set_scope(cluster::RoundScope{true, std::nullopt});  // --once draws a few values
    return print_rounds(options, [&, timeout = settings.timeout](const CancelToken& cancel) {
        auto view = source->round(mono_now() + to_duration(timeout + Seconds(0.25)), cancel);
        if (!view.note) view.note = "data as of the last scrape; refresh is bounded by the scrape interval";
        return cluster::filtered(view, filter);
    });
}

int print_once(const Options& options, const cluster::ClusterSnapshot& view) {
    const cluster::TextOptions text = text_options(options);
    // Rendered whole, then written at once: 100,000 nodes streamed into std::cout a
    // character at a time took seconds past --timeout.
    std::ostringstream out;
    if (options.json) cluster::write_cluster_json(out, view, options.filter, options.cluster.free);
    else out << cluster::render_cluster_text(view, options.filter, text);
    if (print_stdout(out.str()) != 0) return 1;
    return view.all_ok() ? 0 : 1;
}

}  // namespace

int run_cluster(const Options& options, bool interactive) {
    const MonoTime started = mono_now();
    // One socket per node: a thousand nodes need more than the usual soft limit of
    // 1024 descriptors; the hard limit is ours to use (as Go programs do by default).
    raise_open_file_limit();
    try {
        auto filter = cluster::NodeFilter::parse(options.cluster.node_filter.value_or(""));
        if (!filter.ok()) throw UsageProblem{"argument " + filter.error()};
        if (options.cluster.prometheus) return run_prometheus(options, filter.value(), interactive);
        const auto nodes = nodes_of(options.cluster);
        const auto settings = fetch_settings(options);
        warn_if_clear_text(nodes, settings);
        const Seconds interval(options.interval_seconds);
        auto source = std::make_unique<cluster::DirectSource>(nodes, settings,
                                                              std::max(3 * interval, settings.timeout + interval));
        if (interactive) {
            std::ostringstream every;
            every << "from the nodes, every " << options.interval_seconds << " s";
            return run_cluster_screen(options, std::move(source), filter.value(), every.str());
        }
        // A round: every node answers, fails or times out within the timeout. The
        // first counts from the command's start: 100,000 nodes take a second to set up.
        std::optional<MonoTime> first = started;
        return print_rounds(options, [&](const CancelToken& cancel) {
            const MonoTime from = first.value_or(mono_now());
            first.reset();
            const auto until = from + to_duration(settings.timeout + Seconds(0.25));
            return cluster::filtered(source->round(until, cancel), filter.value());
        });
    } catch (const UsageProblem& problem) {
        std::cerr << "musatop: error: " << sanitize(problem.message) << "\n";
        return 2;
    }
}

}  // namespace musatop::cli
