// Prometheus mode: the cluster from one instant query per refresh over the
// agents' series (cluster.md §4), grouped by `instance`.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "musatop/cluster/cluster_sampler.hpp"
#include "musatop/net/endpoint.hpp"
#include "musatop/net/http_client.hpp"
#include "musatop/util/result.hpp"

namespace musatop::cluster {

// Which series make the cluster: the store-wide extras of big clusters (docs/cluster.md).
struct Selection {
    std::string matchers;                 // more label matchers for every selector: cluster="a"
    std::string node_label = "instance";  // the label that names a node
};

struct PrometheusSettings {
    net::Url url;  // http(s)://host:9090[/prefix], without /api/...
    std::string job = "musatop";
    Selection selection;
    std::vector<std::pair<std::string, std::string>> headers;  // from --prometheus-header-file
    // Used, and said in the view, where the store has no /api/v1/targets.
    std::optional<Seconds> assumed_scrape_interval;
    Seconds timeout{3};
    std::optional<std::string> user, password;  // basic auth (password from a file)
    std::optional<std::string> bearer_token;    // from a file
    std::optional<std::string> ca_file;
};

// The instant query: `up` and the agents' series the view reads, of job JOB;
// with `scope.screen_only`, only those the screen draws plus, for `scope.focus`, the rest.
std::string cluster_query(const std::string& job, const RoundScope& scope = {}, const Selection& selection = {});

// The cluster in an answer of /api/v1/query. `scrape_interval`: data older than
// three of them is stale; `last_errors`: lastError of each down instance (from
// /api/v1/targets). Pure.
Result<ClusterSnapshot> cluster_from_prometheus(std::string_view answer, WallTime now, Seconds scrape_interval,
                                                const std::map<std::string, std::string>& last_errors,
                                                const std::string& node_label = "instance");

// A Prometheus duration ("15s", "1m30s", "500ms", "1h"); none when malformed. Pure.
std::optional<Seconds> parse_prometheus_duration(std::string_view text);

// From /api/v1/targets: each target's scrapeInterval and lastError, by instance.
struct TargetsInfo {
    std::optional<Seconds> scrape_interval;
    std::map<std::string, std::string> last_errors;
};
TargetsInfo parse_targets(std::string_view answer, const std::string& job, const std::string& node_label = "instance");

// --prometheus-selector: label matchers (name, =, !=, =~ or !~, a quoted value),
// comma-separated; the message when the text is not that. Pure.
std::optional<std::string> selector_problem(std::string_view matchers);
// --prometheus-node-label: a label name. Pure.
bool valid_label_name(std::string_view name);
// --prometheus-header-file: "Name: value" lines (# comments, blank lines); the
// message naming the line that is not a header. Pure.
Result<std::vector<std::pair<std::string, std::string>>> parse_header_lines(std::string_view text);

class PrometheusSource final : public ClusterSource {
public:
    // Through the proxy the environment names for the URL (http_proxy,
    // https_proxy, no_proxy); an error names a malformed variable.
    static Result<std::unique_ptr<PrometheusSource>> make(PrometheusSettings settings);
    ClusterSnapshot round(MonoTime until, CancelToken cancel) override;
    void set_scope(const RoundScope& scope) override { scope_ = scope; }
    Seconds scrape_interval() const { return scrape_interval_; }

private:
    struct Answer {
        long status = 0;
        std::string body;
        std::string failure;
    };
    PrometheusSource(PrometheusSettings settings, net::Route route);
    Answer request(const std::string& path, const std::string& form, MonoTime until, CancelToken cancel);

    PrometheusSettings settings_;
    std::string shown_;       // the URL in messages
    net::HttpClient client_;  // one channel, its connection kept
    Seconds scrape_interval_{15};
    RoundScope scope_;  // everything, unless the screen's sampler says otherwise
    bool targets_read_ = false;
    std::optional<std::string> targets_missing_;  // said in the view: the interval is assumed
    std::optional<ClusterSnapshot> last_;         // shown (stale) while Prometheus is away
};

}  // namespace musatop::cluster
