// The network half of Prometheus mode: the instant query (and, at start or when
// a node is down, /api/v1/targets) over libcurl, cancellable, connection kept.
#include "musatop/cluster/prometheus_source.hpp"

#include <curl/curl.h>

#include <algorithm>

namespace musatop::cluster {
namespace {

std::size_t on_data(char* data, std::size_t size, std::size_t count, void* user) {
    auto* body = static_cast<std::string*>(user);
    if (body->size() + size * count > (64u << 20)) return 0;  // a runaway answer
    body->append(data, size * count);
    return size * count;
}

}  // namespace

PrometheusSource::PrometheusSource(PrometheusSettings settings) : settings_(std::move(settings)) {
    static const bool initialised = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
    (void)initialised;
    curl_ = curl_easy_init();
    multi_ = curl_multi_init();
}

PrometheusSource::~PrometheusSource() {
    curl_easy_cleanup(static_cast<CURL*>(curl_));
    curl_multi_cleanup(static_cast<CURLM*>(multi_));
}

PrometheusSource::Answer PrometheusSource::request(const std::string& path, const std::string& form, MonoTime until,
                                                   int cancel_fd) {
    CURL* curl = static_cast<CURL*>(curl_);
    CURLM* multi = static_cast<CURLM*>(multi_);
    Answer answer;
    char error[CURL_ERROR_SIZE] = {};
    std::string url = settings_.url;
    while (!url.empty() && url.back() == '/') url.pop_back();
    url += path;
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(settings_.timeout.count() * 1000));
    curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "gzip");
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &answer.body);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
    if (form.empty()) {
        curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L);
    } else {
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, form.c_str());  // a form POST, as Grafana sends it
    }
    if (settings_.user) {
        curl_easy_setopt(curl, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
        curl_easy_setopt(curl, CURLOPT_USERNAME, settings_.user->c_str());
        curl_easy_setopt(curl, CURLOPT_PASSWORD, settings_.password.value_or("").c_str());
    }
    if (settings_.bearer_token) {
        curl_easy_setopt(curl, CURLOPT_HTTPAUTH, CURLAUTH_BEARER);
        curl_easy_setopt(curl, CURLOPT_XOAUTH2_BEARER, settings_.bearer_token->c_str());
    }
    if (settings_.ca_file) curl_easy_setopt(curl, CURLOPT_CAINFO, settings_.ca_file->c_str());
    curl_multi_add_handle(multi, curl);
    CURLcode result = CURLE_OPERATION_TIMEDOUT;
    for (;;) {
        int running = 0;
        curl_multi_perform(multi, &running);
        int queued = 0;
        bool done = false;
        while (CURLMsg* message = curl_multi_info_read(multi, &queued))
            if (message->msg == CURLMSG_DONE) {
                result = message->data.result;
                done = true;
            }
        if (done || std::chrono::steady_clock::now() >= until) break;
        curl_waitfd cancel{cancel_fd, CURL_WAIT_POLLIN, 0};
        int ready = 0;
        curl_multi_poll(multi, cancel_fd >= 0 ? &cancel : nullptr, cancel_fd >= 0 ? 1u : 0u, 100, &ready);
        if (cancel_fd >= 0 && (cancel.revents & CURL_WAIT_POLLIN)) break;
    }
    curl_multi_remove_handle(multi, curl);
    if (result == CURLE_OK) {
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &answer.status);
    } else {
        answer.failure = error[0] ? error : curl_easy_strerror(result);
    }
    return answer;
}

ClusterSnapshot PrometheusSource::round(MonoTime until, int cancel_fd) {
    const auto read_targets = [&] {
        const Answer targets = request("/api/v1/targets?state=active", "", until, cancel_fd);
        if (targets.status == 200) {
            TargetsInfo info = parse_targets(targets.body, settings_.job);
            if (info.scrape_interval) scrape_interval_ = *info.scrape_interval;
            targets_read_ = true;
            return info.last_errors;
        }
        return std::map<std::string, std::string>{};
    };
    std::map<std::string, std::string> last_errors;
    if (!targets_read_) last_errors = read_targets();
    char* escaped = curl_easy_escape(static_cast<CURL*>(curl_), cluster_query(settings_.job, scope_).c_str(), 0);
    const std::string form = std::string("query=") + (escaped ? escaped : "");
    curl_free(escaped);
    const Answer answer = request("/api/v1/query", form, until, cancel_fd);
    const WallTime now = std::chrono::system_clock::now();
    std::string failure = answer.failure;
    if (failure.empty() && answer.status != 200) failure = "HTTP status " + std::to_string(answer.status);
    if (failure.empty()) {
        auto cluster = cluster_from_prometheus(answer.body, now, scrape_interval_, last_errors);
        if (cluster.ok()) {
            const bool down = std::any_of(cluster->nodes.begin(), cluster->nodes.end(),
                                          [](const NodeView& n) { return n.state == NodeState::unreachable; });
            // lastError of the down targets: one more request, only when one is down.
            if (down && last_errors.empty()) {
                last_errors = read_targets();
                auto again = cluster_from_prometheus(answer.body, now, scrape_interval_, last_errors);
                if (again.ok()) cluster = std::move(again);
            }
            last_ = cluster.value();
            return cluster.value();
        }
        failure = cluster.error();
    }
    // Prometheus itself failed: the last view, every node stale, and the reason.
    ClusterSnapshot stale = last_.value_or(ClusterSnapshot{});
    stale.sampled_at = now;
    stale.source = "prometheus";
    for (auto& node : stale.nodes)
        if (node.state == NodeState::ok) {
            node.state = NodeState::stale;
            node.error = "Prometheus did not answer";
        }
    stale.errors = {"Prometheus " + settings_.url + ": " + failure};
    return stale;
}

}  // namespace musatop::cluster
