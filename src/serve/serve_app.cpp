#include "musatop/serve/serve_app.hpp"

#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <thread>

#include "musatop/sampler/sampler.hpp"
#include "musatop/serve/basic_auth.hpp"
#include "musatop/serve/endpoints.hpp"
#include "musatop/net/api.hpp"
#include "musatop/net/http_server.hpp"
#include "musatop/util/cancel.hpp"
#include "musatop/output/sanitize.hpp"
#include "musatop/output/source_log.hpp"
#include "musatop/util/stop_signals.hpp"

namespace musatop::serve {
namespace {

// The agent's paths; every one but /healthz behind basic auth when it is on.
net::Handler make_routes(Sampler& sampler, Endpoints& endpoints, BasicAuth& auth) {
    auto router = std::make_shared<net::Router>();
    router->get(net::kMetricsPath,
                [&](const net::RequestHead&) { return endpoints.metrics(sampler.latest(), wall_now()); });
    router->get(net::kSnapshotPath, [&](const net::RequestHead&) { return endpoints.snapshot(sampler.latest()); });
    router->get(net::kHealthPath, [&](const net::RequestHead&) { return endpoints.health(sampler.latest()); });
    router->get(net::kIndexPath, [&](const net::RequestHead&) { return endpoints.index(sampler.latest()); });
    return [router, &auth](const net::RequestHead& request) {
        const bool open = request.path == net::kHealthPath || (request.method != "GET" && request.method != "HEAD");
        if (!open && auth.enabled() && !auth.allows(request.header("authorization").value_or(""))) {
            net::Response refused = net::text_response(401, "authentication required\n");
            refused.headers.emplace_back("WWW-Authenticate", "Basic realm=\"musatop\"");
            return refused;
        }
        return router->route(request);
    };
}

std::string seconds_text(std::chrono::steady_clock::duration interval) {
    std::string text = std::to_string(std::chrono::duration<double>(interval).count());
    text.erase(text.find_last_not_of('0') + 1);
    if (!text.empty() && text.back() == '.') text.pop_back();
    return text;
}

}  // namespace

int run_serve(const ServeSettings& settings, std::unique_ptr<Source> source) {
    ::signal(SIGPIPE, SIG_IGN);
    // Connection threads would each get a malloc arena that keeps freed memory;
    // two arenas serve two cores as well and keep the agent's RSS small.
    ::mallopt(M_ARENA_MAX, 2);
    // Every thread started from here on inherits the mask; the signals are taken
    // with sigwait below, never by a handler in a random thread.
    sigset_t signals = stop_signal_set();  // the stop signals of every mode, SIGQUIT included
    sigaddset(&signals, SIGUSR1);
    ::pthread_sigmask(SIG_BLOCK, &signals, nullptr);

    std::shared_ptr<net::TlsContext> tls;
    if (settings.web.tls) {
        auto made = net::TlsContext::server(settings.web.tls->cert_file, settings.web.tls->key_file);
        if (!made.ok()) {
            std::cerr << "musatop serve: " << sanitize(made.error()) << "\n";
            return 2;
        }
        tls = made.value();
    }
    const std::string description = source->describe();
    SamplerSettings sampler_settings;
    sampler_settings.interval = settings.interval;
    sampler_settings.aggregate_indices = settings.filter.gpu_indices;
    sampler_settings.on_round = [log = std::make_shared<SourceStateLog>()](const Snapshot& snapshot) {
        for (const auto& line : log->changes(snapshot)) std::cerr << "musatop serve: " << line << "\n" << std::flush;
    };
    Sampler sampler(std::move(source), sampler_settings);
    Endpoints endpoints({settings.filter, Seconds(settings.interval), settings.process_metrics});
    BasicAuth auth(settings.web.users);
    auto server = net::HttpServer::listen(settings.listen.host, settings.listen.port, tls, net::ServerLimits{},
                                          make_routes(sampler, endpoints, auth));
    if (!server.ok()) {
        std::cerr << "musatop serve: cannot listen on " << settings.listen.display() << ": " << server.error() << "\n";
        return 1;
    }
    sampler.start();
    ListenAddress shown = settings.listen;
    shown.port = server.value()->port();
    std::cerr << "musatop serve: listening on " << (tls ? "https://" : "http://") << shown.display() << " (interval "
              << seconds_text(settings.interval) << " s, source " << description
              << (auth.enabled() ? ", basic auth" : "") << ")\n";

    const Canceller stop;
    std::thread listener([&] {
        server.value()->run(stop.fd());
        ::kill(::getpid(), SIGUSR1);  // wakes sigwait if the server stopped by itself
    });
    int received = 0;
    ::sigwait(&signals, &received);
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
