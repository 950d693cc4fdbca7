#include "connection.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>


namespace musatop::serve {
namespace {

MonoTime now() { return std::chrono::steady_clock::now(); }

void address_of(const sockaddr_storage& address, std::string& ip, int& port) {
    char text[INET6_ADDRSTRLEN] = {};
    if (address.ss_family == AF_INET) {
        const auto* v4 = reinterpret_cast<const sockaddr_in*>(&address);
        ::inet_ntop(AF_INET, &v4->sin_addr, text, sizeof text);
        port = ntohs(v4->sin_port);
    } else if (address.ss_family == AF_INET6) {
        const auto* v6 = reinterpret_cast<const sockaddr_in6*>(&address);
        ::inet_ntop(AF_INET6, &v6->sin6_addr, text, sizeof text);
        port = ntohs(v6->sin6_port);
    }
    ip = text;
}

}  // namespace

Connection::Connection(int fd, SSL* ssl, int stop_fd, const ConnectionLimits& limits)
    : fd_(fd), ssl_(ssl), stop_fd_(stop_fd), limits_(limits) {
    ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) | O_NONBLOCK);
    const int yes = 1;  // replies are written whole (flush), so nothing is gained by Nagle
    ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
}

Connection::Io Connection::wait(short events, MonoTime deadline) const {
    for (;;) {
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - now()).count();
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
    const MonoTime deadline = now() + limits_.head_timeout;
    for (;;) {
        const int result = SSL_accept(ssl_);
        if (result == 1) return true;
        const int error = SSL_get_error(ssl_, result);
        if (error != SSL_ERROR_WANT_READ && error != SSL_ERROR_WANT_WRITE) return false;
        if (wait(error == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT, deadline) != Io::ok) return false;
    }
}

HeadStatus Connection::read_head(bool first_request) {
    head_end_ = pos_ = 0;
    // Between requests a keep-alive connection may idle; once a request starts (or
    // from the accept, for the first one) its whole head must arrive in time.
    MonoTime deadline = now() + (first_request || !buffer_.empty() ? limits_.head_timeout : limits_.idle_timeout);
    bool started = first_request || !buffer_.empty();
    for (;;) {
        const std::size_t end = find_head_end(buffer_);
        if (end != std::string::npos && end <= limits_.max_head_bytes) {
            head_end_ = end;
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
            deadline = now() + limits_.head_timeout;
        }
    }
}

void Connection::finish_request() {
    buffer_.erase(0, head_end_);
    head_end_ = pos_ = 0;
}

ssize_t Connection::read(char* ptr, size_t size) {
    const std::size_t n = std::min(size, head_end_ - pos_);
    std::copy_n(buffer_.data() + pos_, n, ptr);
    pos_ += n;
    return static_cast<ssize_t>(n);
}

bool Connection::send_all(std::string_view data) {
    const MonoTime deadline = now() + limits_.write_timeout;
    while (!data.empty()) {
        ssize_t n = 0;
        if (ssl_) {
            const int written = SSL_write(ssl_, data.data(), static_cast<int>(std::min<std::size_t>(data.size(), 1 << 20)));
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

ssize_t Connection::write(const char* ptr, size_t size) {
    constexpr std::size_t kLarge = 4096;
    if (size < kLarge) {
        pending_.append(ptr, size);
        return static_cast<ssize_t>(size);
    }
    // A body: send what is pending, then the body itself without copying it.
    if (!flush() || !send_all(std::string_view(ptr, size))) return -1;
    return static_cast<ssize_t>(size);
}

bool Connection::flush() {
    const bool sent = send_all(pending_);
    pending_.clear();
    return sent;
}

void Connection::refuse(int status, std::string_view reason, std::string_view body) {
    send_all("HTTP/1.1 " + std::to_string(status) + " " + std::string(reason) +
             "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: " + std::to_string(body.size()) +
             "\r\nConnection: close\r\n\r\n" + std::string(body));
}

void Connection::get_remote_ip_and_port(std::string& ip, int& port) const {
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (::getpeername(fd_, reinterpret_cast<sockaddr*>(&address), &length) == 0) address_of(address, ip, port);
}

void Connection::get_local_ip_and_port(std::string& ip, int& port) const {
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length) == 0) address_of(address, ip, port);
}

}  // namespace musatop::serve
