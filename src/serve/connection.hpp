// (internal to the serve layer: the only place httplib appears)
// One client connection of `musatop serve`, with the limits cpp-httplib 0.11 does
// not enforce itself: the request line and headers are read here first, whole,
// within 8 KiB (else 431) and 10 s (a client that drips bytes is cut), a request
// with a body is refused (413), an idle keep-alive connection is closed after 30 s,
// and every wait also watches a stop descriptor so shutdown never waits for a
// client. httplib then parses the buffered head, routes it and writes the answer.
#pragma once

#include <openssl/ssl.h>

#include <chrono>
#include <string>
#include <string_view>

#include <httplib.h>

#include "musatop/serve/request_head.hpp"
#include "musatop/util/clock.hpp"

namespace musatop::serve {

struct ConnectionLimits {
    std::size_t max_head_bytes = 8192;
    std::chrono::milliseconds head_timeout{10000};  // from the first byte of a request to its blank line
    std::chrono::milliseconds idle_timeout{30000};  // keep-alive: waiting for the next request
    std::chrono::milliseconds write_timeout{10000};
    int max_connections = 64;
};

enum class HeadStatus { complete, closed, timed_out, too_large, has_body, stopped };

class Connection final : public httplib::Stream {
public:
    // `ssl` may be null (plain HTTP); the connection does not own fd or ssl.
    Connection(int fd, SSL* ssl, int stop_fd, const ConnectionLimits& limits);

    bool tls_handshake();  // within the head timeout
    // Waits for and buffers the next request head.
    HeadStatus read_head(bool first_request);
    void finish_request();  // drops the served head, keeps pipelined bytes
    bool send_all(std::string_view data);
    // httplib writes a response in several pieces (status, headers, body); they are
    // collected and sent at once, so a small reply is one segment and never waits
    // for a delayed ACK (Nagle). Returns false when the client is gone.
    bool flush();
    // A complete minimal response for the refusals made before httplib sees the request.
    void refuse(int status, std::string_view reason, std::string_view body);

    // httplib::Stream: reads see only the buffered head of the current request.
    bool is_readable() const override { return pos_ < head_end_; }
    bool is_writable() const override { return true; }
    ssize_t read(char* ptr, size_t size) override;
    ssize_t write(const char* ptr, size_t size) override;
    void get_remote_ip_and_port(std::string& ip, int& port) const override;
    void get_local_ip_and_port(std::string& ip, int& port) const override;
    socket_t socket() const override { return fd_; }

private:
    enum class Io { ok, closed, timed_out, stopped };
    Io wait(short events, MonoTime deadline) const;
    Io receive(MonoTime deadline);

    int fd_;
    SSL* ssl_;
    int stop_fd_;
    ConnectionLimits limits_;
    std::string buffer_;
    std::string pending_;  // response bytes not sent yet
    std::size_t head_end_ = 0;
    std::size_t pos_ = 0;
};

}  // namespace musatop::serve
