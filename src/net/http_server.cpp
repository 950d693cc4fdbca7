#include "musatop/net/http_server.hpp"

#include <netdb.h>
#include <netinet/in.h>
#include <openssl/crypto.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>

#include "connection.hpp"
#include "idle_connections.hpp"
#include "musatop/net/api.hpp"
#include "musatop/net/gzip.hpp"
#include "musatop/util/text.hpp"
#include "musatop/util/unique_fd.hpp"

namespace musatop::net {
namespace {

bool compressible(std::string_view content_type) {
    return content_type.rfind("text/", 0) == 0 || content_type.rfind("application/json", 0) == 0;
}

// If-None-Match lists `etag` (or is "*").
bool matches(std::string_view if_none_match, std::string_view etag) {
    for (auto item : text::split(if_none_match, ',')) {
        item = text::trim(item);
        if (item.rfind("W/", 0) == 0) item.remove_prefix(2);  // a weak comparison, as RFC 9110 §13.1.2 asks
        if (item == "*" || item == etag) return true;
    }
    return false;
}

// Binds one address; an error is errno's text.
Result<UniqueFd> bind_one(const std::string& host, int port) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICHOST | AI_NUMERICSERV;
    addrinfo* found = nullptr;
    const std::string service = std::to_string(port);
    if (::getaddrinfo(host.c_str(), service.c_str(), &hints, &found) != 0 || !found)
        return Error{"the address cannot be used"};
    std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> guard(found, ::freeaddrinfo);
    UniqueFd fd(::socket(found->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!fd.valid()) return Error{std::strerror(errno)};
    // SO_REUSEADDR for restarts over TIME_WAIT; never SO_REUSEPORT, which would let
    // a second agent share the port silently.
    const int yes = 1, no = 0;
    ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    if (found->ai_family == AF_INET6) ::setsockopt(fd.get(), IPPROTO_IPV6, IPV6_V6ONLY, &no, sizeof no);
    if (::bind(fd.get(), found->ai_addr, found->ai_addrlen) != 0 || ::listen(fd.get(), SOMAXCONN) != 0)
        return Error{std::strerror(errno)};
    return fd;
}

}  // namespace

Response text_response(int status, std::string body) {
    Response r;
    r.status = status;
    r.content_type = kTextType;
    r.body = std::make_shared<const std::string>(std::move(body));
    return r;
}

Response Router::route(const RequestHead& request) const {
    if (request.method != "GET" && request.method != "HEAD") {
        Response r = text_response(405, "method not allowed: musatop serve is read-only\n");
        r.headers.emplace_back("Allow", "GET, HEAD");
        return r;
    }
    const auto found = routes_.find(request.path);
    if (found == routes_.end()) return text_response(404, "not found\n");
    return found->second(request);
}

std::string write_response_head(const Response& response, std::size_t body_bytes, bool gzipped, bool keep_alive) {
    std::string head =
        "HTTP/1.1 " + std::to_string(response.status) + " " + std::string(reason_phrase(response.status)) + "\r\n";
    if (!response.content_type.empty()) head.append("Content-Type: ").append(response.content_type).append("\r\n");
    if (response.status != 304) head += "Content-Length: " + std::to_string(body_bytes) + "\r\n";
    if (gzipped) head += "Content-Encoding: gzip\r\n";
    if (compressible(response.content_type)) head += "Vary: Accept-Encoding\r\n";
    if (!response.etag.empty()) head += "ETag: " + response.etag + "\r\n";
    for (const auto& [name, value] : response.headers) head += name + ": " + value + "\r\n";
    if (!keep_alive) head += "Connection: close\r\n";
    return head + "\r\n";
}

struct HttpServer::Shared {
    UniqueFd listener;
    std::shared_ptr<TlsContext> tls;
    ServerLimits limits;
    Handler handler;
    std::atomic<int> active{0};  // connections being served
    IdleConnections idle;        // those of them between two requests
    std::mutex mutex;            // guards threads and the gzip cache
    std::condition_variable ended;
    int threads = 0;
    // The compressed form of the last few bodies, keyed by the body itself: fifty
    // scrapers asking for gzip cost one compression a frame.
    std::array<std::pair<std::weak_ptr<const std::string>, std::shared_ptr<const std::string>>, 4> zipped;
    std::size_t next_zipped = 0;

    std::shared_ptr<const std::string> gzipped(const std::shared_ptr<const std::string>& body) {
        {
            std::lock_guard lock(mutex);
            for (const auto& [key, value] : zipped)
                if (!key.expired() && key.lock() == body) return value;
        }
        auto compressed = gzip_compress(*body);
        if (!compressed) return nullptr;
        auto value = std::make_shared<const std::string>(std::move(*compressed));
        std::lock_guard lock(mutex);
        zipped[next_zipped++ % zipped.size()] = {body, value};
        return value;
    }

    // One request on `connection`: false when the connection ends after it.
    bool answer(Connection& connection, bool last) {
        const auto request = parse_request_head(connection.head());
        if (!request) {
            connection.refuse(400, "malformed request\n");
            return false;
        }
        Response response = handler(*request);
        const bool keep_alive = !last && request->keep_alive();
        std::shared_ptr<const std::string> body = response.body;
        bool gzipped_body = false;
        if (!response.etag.empty() && response.status == 200) {
            const auto condition = request->header("if-none-match");
            if (condition && matches(*condition, response.etag)) {
                response.status = 304;
                body.reset();
            }
        }
        if (body && request->accepts_gzip() && compressible(response.content_type)) {
            if (auto zipped_body = gzipped(body)) {
                body = std::move(zipped_body);
                gzipped_body = true;
            }
        }
        const std::size_t size = body ? body->size() : 0;
        const std::string head = write_response_head(response, size, gzipped_body, keep_alive);
        const bool sent =
            connection.send_reply(head, request->method == "HEAD" || !body ? "" : std::string_view(*body));
        return sent && keep_alive;
    }

    void serve(int fd, int stop_fd) {
        UniqueFd owned(fd);
        SSL* ssl = tls ? tls->session(fd) : nullptr;
        struct SslCloser {
            SSL* ssl;
            ~SslCloser() {
                if (!ssl) return;
                SSL_shutdown(ssl);
                SSL_free(ssl);
            }
        } closer{ssl};
        if (tls && !ssl) return;
        Connection connection(fd, ssl, stop_fd, limits, &idle);
        struct Slot {
            std::atomic<int>& count;
            int taken;
            explicit Slot(std::atomic<int>& c) : count(c), taken(++c) {}
            ~Slot() { --count; }
        } slot(active);
        if (ssl && !connection.tls_handshake()) return;
        if (slot.taken > limits.max_connections && !idle.evict_oldest()) {
            connection.refuse(503, "too many connections; try again\n");
            return;
        }
        for (std::size_t served = 0; served < limits.max_requests_per_connection; ++served) {
            switch (connection.read_head(served == 0)) {
                case HeadStatus::complete: break;
                case HeadStatus::too_large: return connection.refuse(431, "request line and headers over 8 KiB\n");
                case HeadStatus::has_body: return connection.refuse(413, "musatop serve takes no request bodies\n");
                case HeadStatus::closed:
                case HeadStatus::timed_out:
                case HeadStatus::stopped: return;
            }
            const bool last = served + 1 == limits.max_requests_per_connection;
            if (!answer(connection, last)) return;
            connection.finish_request();
        }
    }
};

HttpServer::HttpServer(std::unique_ptr<Shared> state) : state_(std::move(state)) {}

HttpServer::~HttpServer() {
    std::unique_lock lock(state_->mutex);
    state_->ended.wait(lock, [&] { return state_->threads == 0; });
}

Result<std::unique_ptr<HttpServer>> HttpServer::listen(const std::string& host, int port,
                                                       std::shared_ptr<TlsContext> tls, ServerLimits limits,
                                                       Handler handler) {
    auto bound = host.empty() ? bind_one("::", port) : bind_one(host, port);
    if (!bound.ok() && host.empty()) bound = bind_one("0.0.0.0", port);  // a host without IPv6
    if (!bound.ok()) return Error{bound.error()};
    auto state = std::make_unique<Shared>();
    state->listener = std::move(bound.value());
    state->tls = std::move(tls);
    state->limits = limits;
    state->handler = std::move(handler);
    return std::unique_ptr<HttpServer>(new HttpServer(std::move(state)));
}

int HttpServer::port() const {
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (::getsockname(state_->listener.get(), reinterpret_cast<sockaddr*>(&address), &length) != 0) return 0;
    if (address.ss_family == AF_INET6) return ntohs(reinterpret_cast<sockaddr_in6*>(&address)->sin6_port);
    return ntohs(reinterpret_cast<sockaddr_in*>(&address)->sin_port);
}

void HttpServer::run(int stop_fd) {
    Shared& st = *state_;
    for (;;) {
        pollfd fds[2] = {{st.listener.get(), POLLIN, 0}, {stop_fd, POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (fds[1].revents) break;
        if (!fds[0].revents) continue;
        const int fd = ::accept4(st.listener.get(), nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0) {
            // Out of descriptors: wait a little rather than spin on the pending connection.
            if (errno == EMFILE || errno == ENFILE) ::poll(fds + 1, 1, 100);
            continue;
        }
        {
            std::lock_guard lock(st.mutex);
            ++st.threads;
        }
        try {
            std::thread([&st, fd, stop_fd] {
                st.serve(fd, stop_fd);
                // Free this thread's OpenSSL state (its error queue) now: the thread is
                // detached, and once the count below reaches 0 the process may exit
                // before the thread-exit handlers that would free it have run.
                OPENSSL_thread_stop();
                std::lock_guard lock(st.mutex);
                --st.threads;
                st.ended.notify_all();
            }).detach();
        } catch (const std::system_error&) {  // no thread to be had: this client is closed
            ::close(fd);
            std::lock_guard lock(st.mutex);
            --st.threads;
        }
    }
    std::unique_lock lock(st.mutex);
    st.ended.wait(lock, [&] { return st.threads == 0; });
}

}  // namespace musatop::net
