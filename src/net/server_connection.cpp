#include "server_connection.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>

namespace musatop::net {
namespace {

constexpr std::size_t kOneWrite = 16384;  // head and body copied into one send up to this size
constexpr std::size_t kDrainBytes = 64u << 10;
constexpr unsigned char kTlsHandshakeRecord = 0x16;

}  // namespace

ServerConnection::ServerConnection(std::uint64_t id, UniqueFd fd, std::string address, MonoTime now)
    : since(now), deadline(now), id_(id), fd_(std::move(fd)), address_(std::move(address)) {
    const int yes = 1;  // answers are written whole, so nothing is gained by Nagle
    ::setsockopt(fd_.get(), IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
}

ServerConnection::~ServerConnection() {
    if (ssl_) SSL_free(ssl_);
}

Io ServerConnection::tls_result(int result) {
    switch (SSL_get_error(ssl_, result)) {
        case SSL_ERROR_WANT_READ: return Io::want_read;
        case SSL_ERROR_WANT_WRITE: return Io::want_write;
        default: ERR_clear_error(); return Io::closed;
    }
}

Io ServerConnection::handshake(const std::shared_ptr<TlsContext>& context) {
    if (!ssl_) {
        unsigned char first = 0;
        const ssize_t n = ::recv(fd_.get(), &first, 1, MSG_PEEK);
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) return Io::want_read;
        if (n <= 0) return Io::closed;
        // A TLS client's first byte starts a handshake record; anything else on the
        // TLS port is a client that forgot https://, answered in the clear as
        // exporter-toolkit (Go's server) does.
        if (first != kTlsHandshakeRecord) return Io::plain_http;
        ssl_ = context ? context->session(fd_.get()) : nullptr;
        if (!ssl_) return Io::closed;
    }
    const int result = SSL_accept(ssl_);
    return result == 1 ? Io::done : tls_result(result);
}

Io ServerConnection::receive(std::size_t cap) {
    char chunk[4096];
    while (input_.size() < cap) {
        const std::size_t room = std::min(sizeof chunk, cap - input_.size());
        if (ssl_) {
            const int n = SSL_read(ssl_, chunk, static_cast<int>(room));
            if (n <= 0) return tls_result(n);
            input_.append(chunk, static_cast<std::size_t>(n));
            continue;
        }
        const ssize_t n = ::recv(fd_.get(), chunk, room, 0);
        if (n > 0) {
            input_.append(chunk, static_cast<std::size_t>(n));
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN) return Io::want_read;
        return Io::closed;
    }
    return Io::done;
}

void ServerConnection::set_output(std::string bytes, std::shared_ptr<const std::string> body) {
    if (body && bytes.size() + body->size() <= kOneWrite) {
        bytes.append(*body);  // one segment: a small answer never waits for a delayed ACK
        body.reset();
    }
    output_ = std::move(bytes);
    body_ = std::move(body);
    output_sent_ = 0;
    body_sent_ = 0;
}

bool ServerConnection::output_done() const {
    return output_sent_ == output_.size() && (!body_ || body_sent_ == body_->size());
}

Io ServerConnection::write() {
    while (!output_done()) {
        const bool head = output_sent_ < output_.size();
        const std::string_view data =
            head ? std::string_view(output_).substr(output_sent_) : std::string_view(*body_).substr(body_sent_);
        std::size_t sent = 0;
        if (ssl_) {
            const int n = SSL_write(ssl_, data.data(), static_cast<int>(std::min<std::size_t>(data.size(), 1 << 20)));
            if (n <= 0) return tls_result(n);
            sent = static_cast<std::size_t>(n);
        } else {
            const ssize_t n = ::send(fd_.get(), data.data(), data.size(), MSG_NOSIGNAL);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0 && errno == EAGAIN) return Io::want_write;
            if (n <= 0) return Io::closed;
            sent = static_cast<std::size_t>(n);
        }
        (head ? output_sent_ : body_sent_) += sent;
    }
    output_.clear();
    body_.reset();
    return Io::done;
}

void ServerConnection::shut_down_writes() {
    if (ssl_) {
        SSL_shutdown(ssl_);  // one close_notify, never waited for
        ERR_clear_error();
    }
    ::shutdown(fd_.get(), SHUT_WR);
}

// A socket closed with the client's request unread makes the kernel answer with a
// reset, and a client whose answer arrived just before may lose it unread. So
// after a refusal the client's bytes are read and dropped until it closes too.
Io ServerConnection::drain() {
    char sink[4096];
    while (dropped_ < kDrainBytes) {
        const ssize_t n = ::recv(fd_.get(), sink, sizeof sink, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN) return Io::want_read;
        if (n <= 0) return Io::closed;
        dropped_ += static_cast<std::size_t>(n);
    }
    return Io::closed;
}

}  // namespace musatop::net
