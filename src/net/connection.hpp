// (internal to the net layer) One client connection of the agent, with its limits:
// the request line and headers are read whole, within `max_head_bytes` (else 431)
// and `head_timeout` (a client that drips bytes is cut), a request with a body is
// refused (413), an idle keep-alive connection is closed after `idle_timeout`, and
// every wait also watches a stop descriptor so shutdown never waits for a client.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "idle_connections.hpp"
#include "musatop/net/http_server.hpp"
#include "musatop/util/clock.hpp"

namespace musatop::net {

enum class HeadStatus { complete, closed, timed_out, too_large, has_body, stopped };

class Connection {
public:
    // `ssl` may be null (plain HTTP); the connection does not own fd or ssl. While
    // it waits between requests it is listed in `idle` (when given).
    Connection(int fd, SSL* ssl, int stop_fd, const ServerLimits& limits, IdleConnections* idle = nullptr);

    bool tls_handshake();  // within the head timeout
    // Waits for and buffers the next request head.
    HeadStatus read_head(bool first_request);
    std::string_view head() const { return std::string_view(buffer_).substr(0, head_end_); }
    void finish_request();  // drops the served head, keeps pipelined bytes
    // The head and body in one write where they fit, so a small reply is one
    // segment and never waits for a delayed ACK. False when the client is gone.
    bool send_reply(std::string_view head, std::string_view body);
    // A complete minimal response for the refusals made before a request is read.
    void refuse(int status, std::string_view body);

private:
    enum class Io { ok, closed, timed_out, stopped };
    Io wait(short events, MonoTime deadline) const;
    Io receive(MonoTime deadline);
    bool send_all(std::string_view data);
    void linger();

    int fd_;
    SSL* ssl_;
    int stop_fd_;
    ServerLimits limits_;
    IdleConnections* idle_;
    std::string buffer_;
    std::size_t head_end_ = 0;
    // When the last request head was complete. The idle list ranks connections by
    // it: taken before the reply is written, no client can see its answer (and open
    // the next connection) before its connection's rank is fixed.
    MonoTime last_request_at_ = mono_now();
};

// "Not Found" for 404.
std::string_view reason_phrase(int status);

}  // namespace musatop::net
