// The agent's HTTP/1.1 server. One thread runs an epoll loop that accepts, takes
// TLS handshakes, reads request heads and writes answers, all non-blocking; a
// fixed pool of threads only runs handlers. So the threads and descriptors the
// agent uses are bounded by its limits, never by its clients: a connection that
// sends nothing, drips a head, stalls a handshake or never reads its answer costs
// one descriptor and a few hundred bytes, and when descriptors run short the one
// doing least is closed for the newcomer. Requests are answered in the order their
// heads came. Bounded request heads, no request bodies, idle
// keep-alive closed, gzip for clients that ask, conditional GETs on an ETag, a
// prompt stop. Read-only by construction: a Router answers GET and HEAD only.
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
    // From the accept to the first request's blank line (a TLS handshake included),
    // and from the first byte of a later request to its blank line.
    std::chrono::milliseconds head_timeout{10000};
    std::chrono::milliseconds idle_timeout{30000};  // keep-alive: waiting for the next request
    std::chrono::milliseconds write_timeout{10000};
    // Requests handed to the workers at once; the others wait their turn, in order.
    int max_answering = 64;
    // Open client sockets; 0: what RLIMIT_NOFILE leaves after `reserved_fds` and the
    // descriptors already open, at most 1024.
    int max_open = 0;
    int reserved_fds = 48;  // the sampler's: GMI's pipes, /proc and the driver's files
    // Connections one address may have before its first request's head is read;
    // 0: an eighth of max_open (at least 4). Past it, that address's oldest goes.
    int per_address_pending = 0;
    std::size_t max_requests_per_connection = 1000;
    int workers = 3;       // the pool for requests that answer at once
    int slow_workers = 1;  // and for those that may block (a bcrypt check)
    std::size_t slow_queue = 8;
};

// A request that may block its worker (a password never seen) runs apart, so a
// flood of them never delays one that answers at once.
enum class Lane { fast, slow };

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

struct ServerOptions {
    ServerLimits limits;
    Handler handler;
    // Called on the loop thread, so it must be cheap; null: every request is fast.
    std::function<Lane(const RequestHead&)> lane;
    // The TLS context for a new connection (asked per connection, so a reloaded
    // certificate is used from the next one on); null: plain HTTP.
    std::function<std::shared_ptr<TlsContext>()> tls;
};

class HttpServer {
public:
    // Binds `host:port` ("" host: every IPv6 and IPv4 address). The error is the
    // system's reason ("Address already in use").
    static Result<std::unique_ptr<HttpServer>> listen(const std::string& host, int port, ServerOptions options);
    ~HttpServer();
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

    int port() const;
    int max_open() const;  // the open connections its limits allow
    // Serves until `stop_fd` turns readable; then closes every connection and
    // returns once no worker runs a handler.
    void run(int stop_fd);

    struct State;

private:
    explicit HttpServer(std::unique_ptr<State> state);
    std::unique_ptr<State> state_;
};

// The bytes of a response head; `body_bytes` for Content-Length.
std::string write_response_head(const Response& response, std::size_t body_bytes, bool gzipped, bool keep_alive);
// "Not Found" for 404.
std::string_view reason_phrase(int status);

}  // namespace musatop::net
