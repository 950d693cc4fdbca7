// (internal to the net layer) One channel of the HttpClient: its route, its
// request, and the one keep-alive connection it reuses, driven by the client's
// epoll loop through the phases of a request.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "musatop/net/http_client.hpp"
#include "musatop/net/http_response.hpp"
#include "musatop/net/tls.hpp"
#include "musatop/util/unique_fd.hpp"
#include "resolver.hpp"

namespace musatop::net {

// What every channel of one client shares.
struct ChannelContext {
    int epoll = -1;
    const ClientSettings* settings = nullptr;
    const TlsContext* tls = nullptr;         // null when no channel is https://, or it failed
    const std::string* tls_error = nullptr;  // why it failed
    std::size_t* busy = nullptr;             // requests out, over every channel
    std::vector<char>* buffer = nullptr;     // one receive buffer for all
};

class Channel {
public:
    using Done = HttpClient::Done;
    Channel(Route route, ChannelContext context);

    void set_index(std::size_t index) { index_ = index; }
    void set_request(const Request& request);
    bool idle() const { return phase_ == Phase::idle; }
    bool resolving() const { return phase_ == Phase::resolving; }
    MonoTime deadline() const { return deadline_; }

    void start(MonoTime now, const Done& done);
    void check_lookup(const Done& done);
    void time_out(MonoTime now, const Done& done);
    void on_event(std::uint32_t events, const Done& done);
    void abandon();

private:
    enum class Phase { idle, resolving, connecting, tunnel_sending, tunnel_reading, handshaking, sending, reading };
    enum class Io { done, want_read, want_write, closed, failed };
    struct SslFree {
        void operator()(SSL* ssl) const;
    };

    const Endpoint& first_hop() const { return route_.proxy ? *route_.proxy : route_.target; }
    void watch(std::uint32_t events);
    void close_connection();
    void finish(ClientOutcome& outcome, const Done& done);
    void fail(std::string why, const Done& done);
    bool retry(const Done& done);
    void connect_first(const Done& done);
    void connect_next(const Done& done);
    void connected(const Done& done);
    void after_connect(const Done& done);
    void read_tunnel(const Done& done);
    void handshake(const Done& done);
    void send(const Done& done);
    void receive(const Done& done);
    void drop_idle();
    Io write_some(std::string_view bytes, std::size_t& sent);
    Io read_some(std::size_t& got);

    Route route_;
    ChannelContext context_;
    std::size_t index_ = 0;
    std::string head_, body_;  // the request, without its blank line: If-None-Match may join
    std::string wire_;         // what is being sent
    std::string tunnel_;       // CONNECT, through an http proxy to an https server
    std::size_t tunnel_sent_ = 0;
    std::string etag_;  // of the last answer used
    std::vector<SocketAddress> addresses_;
    std::size_t next_address_ = 0;
    std::unique_ptr<Lookup> lookup_;
    UniqueFd fd_;
    std::unique_ptr<SSL, SslFree> ssl_;
    std::uint32_t watched_ = 0;  // the events asked of epoll (0: not registered)
    bool reused_ = false;        // the connection has answered before
    bool retried_ = false;       // this request was sent again on a new connection
    Phase phase_ = Phase::idle;
    MonoTime started_{}, deadline_{};
    std::size_t sent_ = 0;
    std::string last_error_;  // of the addresses tried
    HttpResponseReader reader_;
};

}  // namespace musatop::net
