// Every request musatop sends: one epoll set, one non-blocking keep-alive
// connection per channel (a node, or Prometheus), names resolved without
// blocking, every address of a name tried in turn, TLS through OpenSSL inside the
// same loop, http proxies (absolute URI) and https through a proxy (CONNECT), and a
// request on a kept connection the server has meanwhile closed sent again once.
// Per request it makes one send and one or two receives (libcurl's multi
// interface polled each socket three times; docs/PERFORMANCE.md).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "musatop/net/endpoint.hpp"
#include "musatop/net/http_request.hpp"
#include "musatop/util/cancel.hpp"
#include "musatop/util/clock.hpp"

namespace musatop::net {

// One request's result.
struct ClientOutcome {
    bool answered = false;  // an HTTP response arrived
    bool reached = false;   // not answered, but the server sent bytes: it spoke, unusably
    long http_status = 0;
    std::string body;
    // The answer's ETag. Sent back as If-None-Match on the channel's next request
    // when the client is conditional, unless the receiver of the outcome clears it
    // (it could not use the body the tag stands for).
    std::string etag;
    std::string failure;  // why there was no answer ("connection refused"), when !answered
    double seconds = 0;   // from the request to the answer
};

struct ClientSettings {
    Seconds timeout{3};  // per request, connection and TLS handshake included
    std::size_t max_body_bytes = 16 << 20;
    std::size_t spare_bytes = 0;         // capacity kept after a body (a reader's padding)
    std::optional<std::string> ca_file;  // else the system's CA store (SSL_CERT_FILE, SSL_CERT_DIR)
    bool conditional = false;            // If-None-Match with the last ETag
};

// Where a channel's requests go, and through which proxy.
struct Route {
    Endpoint target;
    std::optional<Endpoint> proxy;
    std::optional<std::string> proxy_authorization;  // "Basic ..." for the proxy
};

// A failed request's reason as every part of musatop words it: "connection
// refused" (strerror, lower case), "timed out after 3.0 s".
std::string os_error_text(int error);
std::string timeout_text(double seconds);

class HttpClient {
public:
    using Done = std::function<void(std::size_t, ClientOutcome&)>;

    HttpClient(std::vector<Route> routes, ClientSettings settings);
    ~HttpClient();
    HttpClient(const HttpClient&) = delete;
    HttpClient& operator=(const HttpClient&) = delete;

    // What channel `index` sends from its next start on (a request out is unchanged).
    void set_request(std::size_t index, const Request& request);
    // Starts a request on every channel without one out, then waits until all that
    // are out have finished, `until` passes, or `cancel` is requested. Each
    // finished request goes to `done` (channel, outcome) as it finishes, so a
    // thousand answers are never held at once. The outcome is lent: its body's
    // buffer is kept for the channel's next answer.
    void round(MonoTime until, CancelToken cancel, const Done& done);
    // Gives up channel `index`'s request if one is out: its connection is closed
    // and no outcome is reported (a caller that asks one thing at a time).
    void abandon(std::size_t index);
    // Requests still out (slow servers), for tests and the status line.
    std::size_t in_flight() const;

    struct Shared;  // what the calls share: the channels, the epoll set, TLS

private:
    std::unique_ptr<Shared> state_;
};

// The proxy for `target` from http_proxy / https_proxy / HTTPS_PROXY and no_proxy /
// NO_PROXY (`environment` looks a name up; HTTP_PROXY in capitals is ignored, as
// curl does, since CGI servers set it from a request header). An error names the
// variable whose URL is malformed. no_proxy takes names, .domains, addresses and
// CIDR ranges (as curl 7.86+ and Go); an entry of another shape is ignored and
// said in `warnings`.
Result<std::optional<Route>> proxy_route(const Endpoint& target,
                                         const std::function<const char*(const char*)>& environment,
                                         std::vector<std::string>* warnings = nullptr);

}  // namespace musatop::net
