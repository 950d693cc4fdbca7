#include "client_channel.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include <cerrno>
#include <climits>
#include <cstdio>

namespace musatop::net {

void Channel::SslFree::operator()(SSL* ssl) const { SSL_free(ssl); }

Channel::Channel(Route route, ChannelContext context)
    : route_(std::move(route)),
      context_(context),
      reader_(context.settings->max_body_bytes, context.settings->spare_bytes) {}

void Channel::set_request(const Request& request) {
    const bool absolute = route_.proxy && !route_.target.tls;  // an http proxy forwards the whole URI
    std::string whole = write_request(request, route_.target, absolute);
    head_ = whole.substr(0, whole.size() - request.body.size() - 2);
    if (absolute && route_.proxy_authorization) head_ += "Proxy-Authorization: " + *route_.proxy_authorization + "\r\n";
    body_ = request.body;
}

void Channel::watch(std::uint32_t events) {
    if (events == watched_) return;
    epoll_event event{};
    event.events = events;
    event.data.u64 = index_;
    ::epoll_ctl(context_.epoll, watched_ ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, fd_.get(), &event);
    watched_ = events;
}

void Channel::close_connection() {
    ssl_.reset();
    fd_.reset();  // closing also leaves the epoll set
    watched_ = 0;
    reused_ = false;
}

void Channel::finish(ClientOutcome& outcome, const Done& done) {
    outcome.seconds = std::chrono::duration<double>(mono_now() - started_).count();
    phase_ = Phase::idle;
    --*context_.busy;
    done(index_, outcome);
    if (outcome.http_status == 200) etag_ = outcome.etag;  // unless the receiver cleared it
    else if (outcome.http_status != 304) etag_.clear();
    reader_.reset(std::move(outcome.body));  // the buffer takes the channel's next answer
}

void Channel::fail(std::string why, const Done& done) {
    close_connection();
    ClientOutcome outcome;
    outcome.failure = std::move(why);
    outcome.reached = reader_.started();  // cut short, not HTTP, over the limits: it did answer
    finish(outcome, done);
}

void Channel::start(MonoTime now, const Done& done) {
    phase_ = Phase::sending;
    started_ = now;
    deadline_ = now + to_duration(context_.settings->timeout);
    sent_ = 0;
    retried_ = false;
    reader_.reset(std::move(reader_.body()));
    ++*context_.busy;
    wire_.assign(head_);
    if (context_.settings->conditional && !etag_.empty()) wire_.append("If-None-Match: ").append(etag_).append("\r\n");
    wire_.append("\r\n").append(body_);
    if (route_.target.tls && !context_.tls) return fail(*context_.tls_error, done);
    if (fd_.valid()) return send(done);
    connect_first(done);
}

// A new connection: from the first address (resolved first when needed).
void Channel::connect_first(const Done& done) {
    close_connection();
    sent_ = 0;
    if (addresses_.empty()) addresses_ = literal_addresses(first_hop().host, first_hop().port);
    if (addresses_.empty()) {
        phase_ = Phase::resolving;
        if (!lookup_) lookup_ = std::make_unique<Lookup>(first_hop().host, first_hop().port);
        return check_lookup(done);
    }
    next_address_ = 0;
    last_error_.clear();
    connect_next(done);
}

void Channel::check_lookup(const Done& done) {
    if (!lookup_) return;
    const auto status = lookup_->poll();
    if (status == Lookup::Status::running) return;
    addresses_ = lookup_->take_addresses();
    lookup_.reset();
    if (phase_ != Phase::resolving) return;  // it timed out meanwhile
    if (addresses_.empty())
        return fail(route_.proxy ? "cannot resolve the proxy's host name" : "cannot resolve the host name", done);
    connect_first(done);
}

void Channel::abandon() {
    if (phase_ == Phase::idle) return;
    close_connection();
    phase_ = Phase::idle;
    --*context_.busy;
}

void Channel::time_out(MonoTime now, const Done& done) {
    const double seconds = std::chrono::duration<double>(now - started_).count();
    // glibc resolves about 20 names at a time: with thousands of nodes most wait
    // their turn, which is no sign of the node. The lookup goes on into the next round.
    if (phase_ == Phase::resolving) {
        char text[160];
        std::snprintf(text, sizeof text,
                      "its name was still being resolved after %.1f s (the system resolver takes a few at a time)",
                      seconds);
        return fail(text, done);
    }
    fail(timeout_text(seconds), done);
}

void Channel::connect_next(const Done& done) {
    while (next_address_ < addresses_.size()) {
        const SocketAddress& a = addresses_[next_address_++];
        fd_ = UniqueFd(::socket(a.storage.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
        if (!fd_.valid()) {  // no IPv6 here, or out of fds: the next address may do
            last_error_ = os_error_text(errno);
            continue;
        }
        const int one = 1;
        ::setsockopt(fd_.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        ::setsockopt(fd_.get(), SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
        if (::connect(fd_.get(), reinterpret_cast<const sockaddr*>(&a.storage), a.length) == 0 ||
            errno == EINPROGRESS) {
            phase_ = Phase::connecting;
            return watch(EPOLLOUT);
        }
        last_error_ = os_error_text(errno);
        fd_.reset();
    }
    addresses_.clear();  // resolved again next time: the name may point elsewhere by then
    fail(last_error_.empty() ? std::string("no address to connect to") : last_error_, done);
}

void Channel::connected(const Done& done) {
    int error = 0;
    socklen_t length = sizeof error;
    ::getsockopt(fd_.get(), SOL_SOCKET, SO_ERROR, &error, &length);
    if (error != 0) {
        last_error_ = os_error_text(error);
        fd_.reset();
        watched_ = 0;
        return connect_next(done);
    }
    after_connect(done);
}

void Channel::after_connect(const Done& done) {
    if (route_.proxy && route_.target.tls) {  // a tunnel first
        phase_ = Phase::tunnel_sending;
        tunnel_ = write_connect(route_.target);
        if (route_.proxy_authorization)
            tunnel_.insert(tunnel_.size() - 2, "Proxy-Authorization: " + *route_.proxy_authorization + "\r\n");
        reader_.reset(std::move(reader_.body()), true);
        return send(done);
    }
    if (route_.target.tls) {
        phase_ = Phase::handshaking;
        ssl_.reset(context_.tls->session(fd_.get(), route_.target.host));
        if (!ssl_) return fail("TLS: cannot start a session", done);
        return handshake(done);
    }
    phase_ = Phase::sending;
    send(done);
}

void Channel::handshake(const Done& done) {
    ERR_clear_error();
    const int result = SSL_connect(ssl_.get());
    if (result == 1) {
        phase_ = Phase::sending;
        return send(done);
    }
    const int error = SSL_get_error(ssl_.get(), result);
    if (error == SSL_ERROR_WANT_READ) return watch(EPOLLIN);
    if (error == SSL_ERROR_WANT_WRITE) return watch(EPOLLOUT);
    fail(tls_error_text(ssl_.get(), result), done);
}

// The node closed a kept connection before this request got an answer: the
// request goes again, once, on a new connection (servers close idle ones).
bool Channel::retry(const Done& done) {
    if (!reused_ || retried_ || reader_.started()) return false;
    retried_ = true;
    phase_ = Phase::sending;
    reader_.reset(std::move(reader_.body()));  // it saw the end of the old connection
    connect_first(done);
    return true;
}

Channel::Io Channel::write_some(std::string_view bytes, std::size_t& sent) {
    if (ssl_) {
        ERR_clear_error();
        const int wrote =
            SSL_write(ssl_.get(), bytes.data(), static_cast<int>(std::min<std::size_t>(bytes.size(), INT_MAX)));
        if (wrote > 0) return sent += static_cast<std::size_t>(wrote), Io::done;
        const int error = SSL_get_error(ssl_.get(), wrote);
        if (error == SSL_ERROR_WANT_READ) return Io::want_read;
        if (error == SSL_ERROR_WANT_WRITE) return Io::want_write;
        last_error_ = tls_error_text(ssl_.get(), wrote);
        return Io::failed;
    }
    for (;;) {
        const ssize_t wrote = ::send(fd_.get(), bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (wrote > 0) return sent += static_cast<std::size_t>(wrote), Io::done;
        if (errno == EINTR) continue;
        if (errno == EAGAIN) return Io::want_write;
        last_error_ = os_error_text(errno);
        return Io::failed;
    }
}

Channel::Io Channel::read_some(std::size_t& got) {
    auto& buffer = *context_.buffer;
    if (ssl_) {
        ERR_clear_error();
        const int read = SSL_read(ssl_.get(), buffer.data(), static_cast<int>(buffer.size()));
        if (read > 0) return got = static_cast<std::size_t>(read), Io::done;
        const int error = SSL_get_error(ssl_.get(), read);
        if (error == SSL_ERROR_WANT_READ) return Io::want_read;
        if (error == SSL_ERROR_WANT_WRITE) return Io::want_write;
        // A close without close_notify is how most servers end a connection.
        if (error == SSL_ERROR_ZERO_RETURN || (error == SSL_ERROR_SYSCALL && errno == 0)) return Io::closed;
        last_error_ = tls_error_text(ssl_.get(), read);
        return Io::failed;
    }
    for (;;) {
        const ssize_t read = ::recv(fd_.get(), buffer.data(), buffer.size(), 0);
        if (read > 0) return got = static_cast<std::size_t>(read), Io::done;
        if (read == 0) return Io::closed;
        if (errno == EINTR) continue;
        if (errno == EAGAIN) return Io::want_read;
        last_error_ = os_error_text(errno);
        return Io::failed;
    }
}

void Channel::send(const Done& done) {
    const bool tunnel = phase_ == Phase::tunnel_sending;
    const std::string& bytes = tunnel ? tunnel_ : wire_;
    std::size_t& sent = tunnel ? tunnel_sent_ : sent_;
    while (sent < bytes.size()) {
        switch (write_some(std::string_view(bytes).substr(sent), sent)) {
            case Io::done: continue;
            case Io::want_read: return watch(EPOLLIN);
            case Io::want_write: return watch(EPOLLOUT);
            case Io::closed:
            case Io::failed:
                if (tunnel || !retry(done)) fail(last_error_.empty() ? "the connection failed" : last_error_, done);
                return;
        }
    }
    tunnel_sent_ = 0;
    phase_ = tunnel ? Phase::tunnel_reading : Phase::reading;
    watch(EPOLLIN);  // a kept connection is watched for input already: no epoll_ctl per request
}

// The proxy's answer to CONNECT: 200 opens the tunnel, then TLS runs through it.
void Channel::read_tunnel(const Done& done) {
    for (;;) {
        std::size_t got = 0;
        const Io io = read_some(got);
        if (io == Io::want_read) return;
        const auto state = io == Io::done ? reader_.feed({context_.buffer->data(), got}) : reader_.end_of_input();
        if (state == HttpResponseReader::Progress::reading) continue;
        if (state == HttpResponseReader::Progress::failed) return fail("the proxy: " + reader_.error(), done);
        if (reader_.status() != 200)
            return fail("the proxy refused the tunnel: HTTP status " + std::to_string(reader_.status()), done);
        reader_.reset(std::move(reader_.body()));
        phase_ = Phase::handshaking;
        ssl_.reset(context_.tls->session(fd_.get(), route_.target.host));
        if (!ssl_) return fail("TLS: cannot start a session", done);
        return handshake(done);
    }
}

void Channel::receive(const Done& done) {
    for (;;) {
        std::size_t got = 0;
        const Io io = read_some(got);
        if (io == Io::want_read) return watch(EPOLLIN);
        if (io == Io::want_write) return watch(EPOLLOUT);  // TLS wants to write before it reads
        if (io == Io::failed && !reader_.started()) {
            if (!retry(done)) fail(last_error_, done);
            return;
        }
        const auto state = io == Io::done ? reader_.feed({context_.buffer->data(), got}) : reader_.end_of_input();
        if (state == HttpResponseReader::Progress::reading) continue;
        if (state == HttpResponseReader::Progress::failed) {
            if (retry(done)) return;
            return fail(io == Io::failed ? last_error_ : reader_.error(), done);
        }
        ClientOutcome outcome;
        outcome.answered = true;
        outcome.http_status = reader_.status();
        outcome.etag = reader_.etag();
        outcome.body = std::move(reader_.body());
        const bool keep = reader_.keep_alive();
        if (!keep) close_connection();
        else reused_ = true;
        return finish(outcome, done);
    }
}

// An idle kept connection that turns readable was closed (or spoke out of turn);
// over TLS it may only be the server's session tickets, which OpenSSL takes itself.
void Channel::drop_idle() {
    if (ssl_) {
        std::size_t got = 0;
        if (read_some(got) == Io::want_read) return;
    }
    close_connection();
}

void Channel::on_event(std::uint32_t events, const Done& done) {
    switch (phase_) {
        case Phase::idle: return drop_idle();
        case Phase::resolving: return;
        case Phase::connecting: return connected(done);
        case Phase::tunnel_reading: return read_tunnel(done);
        case Phase::handshaking: return handshake(done);
        case Phase::reading: return receive(done);
        case Phase::tunnel_sending:
        case Phase::sending:
            if ((events & (EPOLLERR | EPOLLHUP)) && !ssl_) {
                if (phase_ == Phase::tunnel_sending || !retry(done)) fail("the connection failed", done);
                return;
            }
            return send(done);
    }
}

}  // namespace musatop::net
