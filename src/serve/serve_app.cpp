#include "musatop/serve/serve_app.hpp"

#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <thread>

#include "musatop/sampler/sampler.hpp"
#include "musatop/serve/basic_auth.hpp"
#include "musatop/serve/endpoints.hpp"
#include "http_server.hpp"
#include "musatop/util/cancel.hpp"

namespace musatop::serve {
namespace {

void send(httplib::Response& response, const Reply& reply) {
    response.status = reply.status;
    response.set_content(*reply.body, reply.content_type.c_str());
}

void add_routes(httplib::Server& server, Sampler& sampler, Endpoints& endpoints, BasicAuth& auth) {
    server.set_pre_routing_handler([&auth](const httplib::Request& request, httplib::Response& response) {
        if (request.method != "GET" && request.method != "HEAD") {
            response.status = 405;
            response.set_header("Allow", "GET, HEAD");
            response.set_content("method not allowed: musatop serve is read-only\n", "text/plain; charset=utf-8");
            return httplib::Server::HandlerResponse::Handled;
        }
        if (request.path != "/healthz" && auth.enabled() && !auth.allows(request.get_header_value("Authorization"))) {
            response.status = 401;
            response.set_header("WWW-Authenticate", "Basic realm=\"musatop\"");
            response.set_content("authentication required\n", "text/plain; charset=utf-8");
            return httplib::Server::HandlerResponse::Handled;
        }
        return httplib::Server::HandlerResponse::Unhandled;
    });
    server.Get("/metrics", [&](const httplib::Request&, httplib::Response& response) {
        send(response, endpoints.metrics(sampler.latest(), std::chrono::system_clock::now()));
    });
    server.Get("/api/v1/snapshot", [&](const httplib::Request&, httplib::Response& response) {
        send(response, endpoints.snapshot(sampler.latest()));
    });
    server.Get("/healthz", [&](const httplib::Request&, httplib::Response& response) {
        send(response, endpoints.health(sampler.latest()));
    });
    server.Get("/", [&](const httplib::Request&, httplib::Response& response) {
        send(response, endpoints.index(sampler.latest()));
    });
    server.set_error_handler([](const httplib::Request&, httplib::Response& response) {
        if (response.status == 404) response.set_content("not found\n", "text/plain; charset=utf-8");
    });
}

// Binds the address; for ":PORT" every IPv6 and IPv4 address, or IPv4 alone where
// the host has no IPv6.
bool bind(httplib::Server& server, const ListenAddress& listen, std::string& error) {
    // httplib's default also sets SO_REUSEPORT, which would let a second agent share
    // the port silently; a port in use must be an error instead.
    server.set_socket_options([](socket_t sock) {
        const int yes = 1, no = 0;
        ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
        ::setsockopt(sock, IPPROTO_IPV6, IPV6_V6ONLY, &no, sizeof no);  // fails harmlessly on IPv4 sockets
    });
    errno = 0;
    if (!listen.host.empty()) {
        if (server.bind_to_port(listen.host, listen.port)) return true;
    } else {
        if (server.bind_to_port("::", listen.port) || server.bind_to_port("0.0.0.0", listen.port)) return true;
    }
    error = errno ? std::strerror(errno) : "the address cannot be used";
    return false;
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
    // Up to 68 HTTP workers would each get a malloc arena that keeps freed memory;
    // two arenas serve two cores as well and keep the agent's RSS small.
    ::mallopt(M_ARENA_MAX, 2);
    // Every thread started from here on inherits the mask; the signals are taken
    // with sigwait below, never by a handler in a random thread.
    sigset_t signals;
    sigemptyset(&signals);
    for (int s : {SIGTERM, SIGINT, SIGHUP, SIGUSR1}) sigaddset(&signals, s);
    ::pthread_sigmask(SIG_BLOCK, &signals, nullptr);

    const Canceller stop;
    auto made = make_http_server(settings.web.tls, ConnectionLimits{}, stop.fd());
    if (!made.ok()) {
        std::cerr << "musatop serve: " << made.error() << "\n";
        return 2;
    }
    httplib::Server& server = *made.value();
    const std::string description = source->describe();
    SamplerSettings sampler_settings;
    sampler_settings.interval = settings.interval;
    sampler_settings.aggregate_indices = settings.filter.gpu_indices;
    Sampler sampler(std::move(source), sampler_settings);
    Endpoints endpoints({settings.filter, Seconds(settings.interval), settings.process_metrics});
    BasicAuth auth(settings.web.users);
    add_routes(server, sampler, endpoints, auth);

    std::string error;
    if (!bind(server, settings.listen, error)) {
        std::cerr << "musatop serve: cannot listen on " << settings.listen.display() << ": " << error << "\n";
        return 1;
    }
    sampler.start();
    std::cerr << "musatop serve: listening on " << (settings.web.tls ? "https://" : "http://")
              << settings.listen.display() << " (interval " << seconds_text(settings.interval) << " s, source "
              << description << (auth.enabled() ? ", basic auth" : "") << ")\n";

    std::atomic<bool> listener_done{false};
    std::thread listener([&] {
        server.listen_after_bind();
        listener_done = true;
        ::kill(::getpid(), SIGUSR1);  // wakes sigwait if the server stopped by itself
    });
    int received = 0;
    ::sigwait(&signals, &received);
    stop.cancel();  // wakes every connection waiting on a client
    // stop() acts only once the server runs; a signal right at start may come first.
    while (!listener_done) {
        server.stop();
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    listener.join();
    sampler.stop();
    if (received == SIGUSR1) {
        std::cerr << "musatop serve: the HTTP server stopped unexpectedly\n";
        return 1;
    }
    return 0;
}

}  // namespace musatop::serve
