// The network half of Prometheus mode: the instant query (and, at start or when
// a node is down, /api/v1/targets) over the net layer's client, cancellable,
// connection kept, through the proxy the environment names.
#include "musatop/cluster/prometheus_source.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "musatop/net/base64.hpp"
#include "musatop/output/sanitize.hpp"

namespace musatop::cluster {
namespace {

constexpr std::size_t kMaxAnswerBytes = 64 << 20;  // a runaway answer

net::ClientSettings client_settings(const PrometheusSettings& settings) {
    net::ClientSettings client;
    client.timeout = settings.timeout;
    client.max_body_bytes = kMaxAnswerBytes;
    client.ca_file = settings.ca_file;
    return client;
}

std::string shown_url(const net::Url& url) {
    return (url.endpoint.tls ? "https://" : "http://") + url.endpoint.authority() + url.path;
}

}  // namespace

Result<std::unique_ptr<PrometheusSource>> PrometheusSource::make(PrometheusSettings settings) {
    std::vector<std::string> warnings;
    auto proxy = net::proxy_route(
        settings.url.endpoint, [](const char* name) { return std::getenv(name); }, &warnings);
    for (const auto& warning : warnings) std::cerr << "musatop: " << sanitize(warning) << "\n";
    if (!proxy.ok()) return Error{proxy.error()};
    net::Route route = proxy->value_or(net::Route{settings.url.endpoint, {}, {}});
    return std::unique_ptr<PrometheusSource>(new PrometheusSource(std::move(settings), std::move(route)));
}

PrometheusSource::PrometheusSource(PrometheusSettings settings, net::Route route)
    : settings_(std::move(settings)),
      shown_(shown_url(settings_.url)),
      client_({std::move(route)}, client_settings(settings_)) {}

PrometheusSource::Answer PrometheusSource::request(const std::string& path, const std::string& form, MonoTime until,
                                                   CancelToken cancel) {
    net::Request request;
    request.target = settings_.url.path + path;
    request.headers = {{"User-Agent", "musatop-cluster"}, {"Accept", "application/json"}};
    if (!form.empty()) {  // a form POST, as Grafana sends it
        request.method = "POST";
        request.headers.emplace_back("Content-Type", "application/x-www-form-urlencoded");
        request.body = form;
    }
    if (settings_.user)
        request.headers.emplace_back("Authorization",
                                     net::basic_authorization(*settings_.user, settings_.password.value_or("")));
    if (settings_.bearer_token) request.headers.emplace_back("Authorization", "Bearer " + *settings_.bearer_token);
    for (const auto& header : settings_.headers) request.headers.push_back(header);
    client_.set_request(0, request);
    Answer answer;
    answer.failure = "cancelled";
    client_.round(until, cancel, [&](std::size_t, net::ClientOutcome& outcome) {
        answer.failure = outcome.answered ? std::string() : outcome.failure;
        answer.status = outcome.http_status;
        answer.body = std::move(outcome.body);
    });
    if (client_.in_flight() > 0) {  // cancelled, or the round ended first: not read by a later request
        client_.abandon(0);
        answer.failure = "no answer within the round";
    }
    return answer;
}

ClusterSnapshot PrometheusSource::round(MonoTime until, CancelToken cancel) {
    const auto read_targets = [&] {
        const Answer targets = request("/api/v1/targets?state=active", "", until, cancel);
        if (targets.status == 200) {
            TargetsInfo info = parse_targets(targets.body, settings_.job, settings_.selection.node_label);
            if (info.scrape_interval) scrape_interval_ = *info.scrape_interval;
            targets_read_ = true;
            targets_missing_.reset();
            return info.last_errors;
        }
        // Thanos Query and VictoriaMetrics' query nodes have no targets API: the
        // interval is the one the user gave, or the default, and the view says so.
        if (targets.failure.empty() && (targets.status == 404 || targets.status == 405 || targets.status == 501)) {
            targets_read_ = true;
            if (settings_.assumed_scrape_interval) scrape_interval_ = *settings_.assumed_scrape_interval;
            char seconds[32];
            std::snprintf(seconds, sizeof seconds, "%g", scrape_interval_.count());
            targets_missing_ = shown_ + " has no /api/v1/targets: a scrape interval of " + seconds + " s is " +
                               (settings_.assumed_scrape_interval ? "assumed (--prometheus-scrape-interval)"
                                                                  : "assumed; give the real one with "
                                                                    "--prometheus-scrape-interval") +
                               ", and down nodes show no scrape error";
        }
        return std::map<std::string, std::string>{};
    };
    std::map<std::string, std::string> last_errors;
    if (!targets_read_) last_errors = read_targets();
    const std::string form = "query=" + net::form_encode(cluster_query(settings_.job, scope_, settings_.selection));
    const std::string& node_label = settings_.selection.node_label;
    const Answer answer = request("/api/v1/query", form, until, cancel);
    const WallTime now = wall_now();
    std::string failure = answer.failure;
    if (failure.empty() && answer.status != 200) failure = "HTTP status " + std::to_string(answer.status);
    if (failure.empty()) {
        auto cluster = cluster_from_prometheus(answer.body, now, scrape_interval_, last_errors, node_label);
        if (cluster.ok()) {
            // lastError of the down targets: one more request, only when one is down
            // and the targets read before the query did not say why (it went down
            // between the two requests, or they were read in an earlier round).
            const bool unexplained = std::any_of(cluster->nodes.begin(), cluster->nodes.end(), [&](const NodeView& n) {
                const auto known = last_errors.find(n.address);
                return n.state == NodeState::unreachable && (known == last_errors.end() || known->second.empty());
            });
            if (unexplained && !targets_missing_) {
                last_errors = read_targets();
                auto again = cluster_from_prometheus(answer.body, now, scrape_interval_, last_errors, node_label);
                if (again.ok()) cluster = std::move(again);
            }
            ClusterSnapshot view = cluster.value();
            if (targets_missing_) view.note = view.note ? *targets_missing_ + "; " + *view.note : *targets_missing_;
            last_ = view;
            return view;
        }
        failure = cluster.error();
    }
    // Prometheus itself failed: the last view, every node stale, and the reason.
    ClusterSnapshot stale = last_.value_or(ClusterSnapshot{});
    stale.sampled_at = now;
    stale.source = ClusterOrigin::prometheus;
    for (auto& node : stale.nodes)
        if (node.state == NodeState::ok) {
            node.state = NodeState::stale;
            node.error = "Prometheus did not answer";
        }
    stale.errors = {"Prometheus " + shown_ + ": " + failure};
    return stale;
}

}  // namespace musatop::cluster
