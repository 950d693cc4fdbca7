#include "connection.hpp"

#include "musatop/net/api.hpp"

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <optional>

namespace musatop::net {
namespace {

constexpr std::size_t kOneWrite = 16384;  // head and body copied into one send up to this size

}  // namespace

Connection::Connection(int fd, SSL* ssl, int stop_fd, const ServerLimits& limits, IdleConnections* idle)
    : fd_(fd), ssl_(ssl), stop_fd_(stop_fd), limits_(limits), idle_(idle) {
    ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) | O_NONBLOCK);
    const int yes = 1;  // replies are written whole, so nothing is gained by Nagle
    ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
}

Connection::Io Connection::wait(short events, MonoTime deadline) const {
    for (;;) {
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - mono_now()).count();
        if (left <= 0) return Io::timed_out;
        pollfd fds[2] = {{fd_, events, 0}, {stop_fd_, POLLIN, 0}};
        const int ready = ::poll(fds, stop_fd_ >= 0 ? 2 : 1, static_cast<int>(std::min<long long>(left, 60000)));
        if (ready < 0 && errno == EINTR) continue;
        if (ready < 0) return Io::closed;
        if (stop_fd_ >= 0 && fds[1].revents) return Io::stopped;
        if (fds[0].revents) return Io::ok;
    }
}

Connection::Io Connection::receive(MonoTime deadline) {
    char chunk[4096];
    for (;;) {
        if (!ssl_ || SSL_pending(ssl_) == 0) {
            const Io ready = wait(POLLIN, deadline);
            if (ready != Io::ok) return ready;
        }
        if (ssl_) {
            const int n = SSL_read(ssl_, chunk, sizeof chunk);
            if (n > 0) {
                buffer_.append(chunk, static_cast<std::size_t>(n));
                return Io::ok;
            }
            const int error = SSL_get_error(ssl_, n);
            if (error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE) continue;
            return Io::closed;
        }
        const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
        if (n > 0) {
            buffer_.append(chunk, static_cast<std::size_t>(n));
            return Io::ok;
        }
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
        return Io::closed;
    }
}

bool Connection::tls_handshake() {
    const MonoTime deadline = mono_now() + limits_.head_timeout;
    for (;;) {
        const int result = SSL_accept(ssl_);
        if (result == 1) return true;
        const int error = SSL_get_error(ssl_, result);
        if (error != SSL_ERROR_WANT_READ && error != SSL_ERROR_WANT_WRITE) return false;
        if (wait(error == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT, deadline) != Io::ok) return false;
    }
}

HeadStatus Connection::read_head(bool first_request) {
    head_end_ = 0;
    // Between requests a keep-alive connection may idle; once a request starts (or
    // from the accept, for the first one) its whole head must arrive in time.
    MonoTime deadline = mono_now() + (first_request || !buffer_.empty() ? limits_.head_timeout : limits_.idle_timeout);
    bool started = first_request || !buffer_.empty();
    std::optional<IdleConnections::Mark> idle;
    if (!started) idle.emplace(idle_, fd_, last_request_at_);
    for (;;) {
        const std::size_t end = find_head_end(buffer_);
        if (end != std::string::npos && end <= limits_.max_head_bytes) {
            head_end_ = end;
            last_request_at_ = mono_now();
            return head_has_body(std::string_view(buffer_).substr(0, end)) ? HeadStatus::has_body
                                                                           : HeadStatus::complete;
        }
        if (buffer_.size() >= limits_.max_head_bytes) return HeadStatus::too_large;
        switch (receive(deadline)) {
            case Io::ok: break;
            case Io::closed: return HeadStatus::closed;
            case Io::timed_out: return HeadStatus::timed_out;
            case Io::stopped: return HeadStatus::stopped;
        }
        if (!started) {
            started = true;
            idle.reset();
            deadline = mono_now() + limits_.head_timeout;
        }
    }
}

void Connection::finish_request() {
    buffer_.erase(0, head_end_);
    head_end_ = 0;
}

bool Connection::send_all(std::string_view data) {
    const MonoTime deadline = mono_now() + limits_.write_timeout;
    while (!data.empty()) {
        ssize_t n = 0;
        if (ssl_) {
            const int written =
                SSL_write(ssl_, data.data(), static_cast<int>(std::min<std::size_t>(data.size(), 1 << 20)));
            if (written <= 0) {
                const int error = SSL_get_error(ssl_, written);
                if (error != SSL_ERROR_WANT_READ && error != SSL_ERROR_WANT_WRITE) return false;
                if (wait(error == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT, deadline) != Io::ok) return false;
                continue;
            }
            n = written;
        } else {
            n = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
            if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
                if (wait(POLLOUT, deadline) != Io::ok) return false;
                continue;
            }
            if (n <= 0) return false;
        }
        data.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

bool Connection::send_reply(std::string_view head, std::string_view body) {
    if (head.size() + body.size() <= kOneWrite) {
        std::string whole;
        whole.reserve(head.size() + body.size());
        whole.append(head).append(body);
        return send_all(whole);
    }
    return send_all(head) && send_all(body);
}

void Connection::refuse(int status, std::string_view body) {
    Response response;
    response.status = status;
    response.content_type = kTextType;
    if (send_reply(write_response_head(response, body.size(), false, false), body)) linger();
}

// A socket closed with the client's request unread makes the kernel answer with a
// reset, and a client whose reply arrived just before may lose it unread (a busy
// client does). So the refusal is followed by the end of our side, and what the
// client still sends is read and dropped until it closes too, briefly.
void Connection::linger() {
    if (ssl_) SSL_shutdown(ssl_);
    ::shutdown(fd_, SHUT_WR);
    const MonoTime deadline = mono_now() + std::chrono::milliseconds(500);
    char sink[4096];
    for (std::size_t dropped = 0; dropped < (64u << 10);) {
        if (wait(POLLIN, deadline) != Io::ok) return;
        const ssize_t n = ::recv(fd_, sink, sizeof sink, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0 && !(n < 0 && errno == EAGAIN)) return;
        dropped += n > 0 ? static_cast<std::size_t>(n) : 0;
    }
}

std::string_view reason_phrase(int status) {
    switch (status) {
        case 200: return "OK";
        case 304: return "Not Modified";
        case 400: return "Bad Request";
        case 401: return "Unauthorized";
        case 404: return "Not Found";
        case 405: return "Method Not Allowed";
        case 413: return "Payload Too Large";
        case 431: return "Request Header Fields Too Large";
        case 500: return "Internal Server Error";
        case 503: return "Service Unavailable";
        default: return "Unknown";
    }
}

}  // namespace musatop::net
