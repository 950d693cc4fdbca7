// The agent's HTTP/1.1 server: one listener, a thread per open connection (at
// most `max_connections` served, one more answering 503 beyond that), bounded
// request heads, no request bodies, idle keep-alive closed, TLS when given a
// context, gzip for clients that ask, conditional GETs on an ETag, and a prompt
// stop. Read-only by construction: a Router answers GET and HEAD and nothing else.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "musatop/net/http_request.hpp"
#include "musatop/net/tls.hpp"
#include "musatop/util/result.hpp"

namespace musatop::net {

struct ServerLimits {
    std::size_t max_head_bytes = 8192;
    std::chrono::milliseconds head_timeout{10000};  // from the first byte of a request to its blank line
    std::chrono::milliseconds idle_timeout{30000};  // keep-alive: waiting for the next request
    std::chrono::milliseconds write_timeout{10000};
    int max_connections = 64;
    std::size_t max_requests_per_connection = 1000;
};

struct Response {
    int status = 200;
    std::string_view content_type;            // a constant (api.hpp)
    std::shared_ptr<const std::string> body;  // shared with a cache: no copy per client
    std::string etag;                         // "\"...\"": a matching If-None-Match gets 304
    std::vector<std::pair<std::string, std::string>> headers;
};

Response text_response(int status, std::string body);

using Handler = std::function<Response(const RequestHead&)>;

// Paths to handlers for GET (and HEAD, answered as GET without the body); any
// other method is 405 with Allow, an unknown path 404.
class Router {
public:
    void get(std::string_view path, Handler handler) { routes_.emplace(std::string(path), std::move(handler)); }
    Response route(const RequestHead& request) const;

private:
    std::map<std::string, Handler, std::less<>> routes_;
};

class HttpServer {
public:
    // Binds `host:port` ("" host: every IPv6 and IPv4 address). The error is the
    // system's reason ("Address already in use").
    static Result<std::unique_ptr<HttpServer>> listen(const std::string& host, int port,
                                                      std::shared_ptr<TlsContext> tls, ServerLimits limits,
                                                      Handler handler);
    ~HttpServer();
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

    int port() const;
    // Accepts until `stop_fd` turns readable, then waits for every connection,
    // each of which also watches `stop_fd`, to end.
    void run(int stop_fd);

    struct Shared;  // what the threads share: the listener, the routes, the connections

private:
    explicit HttpServer(std::unique_ptr<Shared> state);
    std::unique_ptr<Shared> state_;
};

// The bytes of a response head; `body_bytes` for Content-Length.
std::string write_response_head(const Response& response, std::size_t body_bytes, bool gzipped, bool keep_alive);

}  // namespace musatop::net
