#include "musatop/serve/serve_app.hpp"

#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <cstring>
#include <iostream>
#include <thread>

#include "musatop/sampler/sampler.hpp"
#include "musatop/serve/basic_auth.hpp"
#include "musatop/serve/live_web_config.hpp"
#include "musatop/serve/endpoints.hpp"
#include "musatop/net/api.hpp"
#include "musatop/net/http_server.hpp"
#include "musatop/util/cancel.hpp"
#include "musatop/util/fd_limit.hpp"
#include "musatop/output/sanitize.hpp"
#include "musatop/output/source_log.hpp"
#include "musatop/util/stop_signals.hpp"

namespace musatop::serve {
namespace {

// Whether a request needs the password check (every path but /healthz, GET and HEAD).
bool guarded(const net::RequestHead& request) {
    return request.path != net::kHealthPath && (request.method == "GET" || request.method == "HEAD");
}

// The agent's paths; every one but /healthz behind basic auth when it is on. A
// request whose credentials need a bcrypt check runs in the slow lane.
net::ServerOptions make_routes(Sampler& sampler, Endpoints& endpoints, LiveWebConfig& web) {
    auto router = std::make_shared<net::Router>();
    router->get(net::kMetricsPath,
                [&](const net::RequestHead&) { return endpoints.metrics(sampler.latest(), wall_now()); });
    router->get(net::kSnapshotPath, [&](const net::RequestHead&) { return endpoints.snapshot(sampler.latest()); });
    router->get(net::kHealthPath, [&](const net::RequestHead&) { return endpoints.health(sampler.latest()); });
    router->get(net::kIndexPath, [&](const net::RequestHead&) { return endpoints.index(sampler.latest()); });
    net::ServerOptions options;
    options.handler = [router, &web](const net::RequestHead& request) {
        BasicAuth& auth = *web.current()->auth;
        if (guarded(request) && auth.enabled() && !auth.allows(request.header("authorization").value_or(""))) {
            net::Response refused = net::text_response(401, "authentication required\n");
            refused.headers.emplace_back("WWW-Authenticate", "Basic realm=\"musatop\"");
            return refused;
        }
        return router->route(request);
    };
    options.lane = [&web](const net::RequestHead& request) {
        if (!guarded(request)) return net::Lane::fast;
        const bool at_once = web.current()->auth->answers_at_once(request.header("authorization").value_or(""));
        return at_once ? net::Lane::fast : net::Lane::slow;
    };
    return options;
}

// Until a stop signal (returned). SIGHUP reads the web config again (systemctl
// reload), as exporters do; meanwhile the files are looked at every quarter
// second, so a broken edit is logged when it is made, not at the next request.
int wait_for_stop(const sigset_t& signals, LiveWebConfig& web) {
    const timespec look = {0, std::chrono::duration_cast<std::chrono::nanoseconds>(kWebConfigLook).count()};
    for (;;) {
        const int received = ::sigtimedwait(&signals, nullptr, &look);
        if (received == SIGHUP) web.reload();
        else if (received > 0) return received;
        else web.current();
    }
}

void log_line(const std::string& line) { std::cerr << "musatop serve: " << sanitize(line) << "\n" << std::flush; }

std::string seconds_text(std::chrono::steady_clock::duration interval) {
    std::string text = std::to_string(std::chrono::duration<double>(interval).count());
    text.erase(text.find_last_not_of('0') + 1);
    if (!text.empty() && text.back() == '.') text.pop_back();
    return text;
}

}  // namespace

int run_serve(const ServeSettings& settings, std::unique_ptr<Source> source) {
    ::signal(SIGPIPE, SIG_IGN);
    // Each thread would get a malloc arena that keeps freed memory; two arenas
    // serve two cores as well and keep the agent's RSS small.
    ::mallopt(M_ARENA_MAX, 2);
    // Every thread started from here on inherits the mask; the signals are taken
    // with sigwait below, never by a handler in a random thread.
    sigset_t signals = stop_signal_set();  // the stop signals of every mode, SIGQUIT included
    sigaddset(&signals, SIGUSR1);
    ::pthread_sigmask(SIG_BLOCK, &signals, nullptr);

    raise_open_file_limit(4096);  // the connection cap (1024) and the sampler, no more
    auto web = LiveWebConfig::start(settings.web_config_file, settings.web, log_line);
    if (!web.ok()) {
        std::cerr << "musatop serve: " << sanitize(web.error()) << "\n";
        return 2;
    }
    LiveWebConfig& live = *web.value();
    const bool tls = live.current()->tls != nullptr;
    const std::string description = source->describe();
    SamplerSettings sampler_settings;
    sampler_settings.interval = settings.interval;
    sampler_settings.aggregate_indices = settings.filter.gpu_indices;
    sampler_settings.on_round = [log = std::make_shared<SourceStateLog>()](const Snapshot& snapshot) {
        for (const auto& line : log->changes(snapshot)) std::cerr << "musatop serve: " << line << "\n" << std::flush;
    };
    Sampler sampler(std::move(source), sampler_settings);
    Endpoints endpoints({settings.filter, Seconds(settings.interval), settings.process_metrics});
    net::ServerOptions options = make_routes(sampler, endpoints, live);
    if (tls) options.tls = [&live] { return live.current()->tls; };
    auto server = net::HttpServer::listen(settings.listen.host, settings.listen.port, std::move(options));
    if (!server.ok()) {
        std::cerr << "musatop serve: cannot listen on " << settings.listen.display() << ": " << server.error() << "\n";
        return 1;
    }
    sampler.start();
    ListenAddress shown = settings.listen;
    shown.port = server.value()->port();
    std::cerr << "musatop serve: listening on " << (tls ? "https://" : "http://") << shown.display() << " (interval "
              << seconds_text(settings.interval) << " s, source " << description
              << (live.current()->auth->enabled() ? ", basic auth" : "") << ", at most " << server.value()->max_open()
              << " connections)\n";

    const Canceller stop;
    std::thread listener([&] {
        server.value()->run(stop.fd());
        ::kill(::getpid(), SIGUSR1);  // wakes sigwait if the server stopped by itself
    });
    const int received = wait_for_stop(signals, live);
    stop.cancel();  // ends the accept loop and wakes every connection waiting on a client
    listener.join();
    server.value().reset();
    sampler.stop();
    if (received == SIGUSR1) {
        std::cerr << "musatop serve: the HTTP server stopped unexpectedly\n";
        return 1;
    }
    return 0;
}

}  // namespace musatop::serve
