// (internal to the net layer) One client socket of the agent's server, driven by
// the loop: every call is non-blocking and says what it needs next. It owns its
// descriptor and its TLS session; the loop owns it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "musatop/net/admission.hpp"
#include "musatop/net/tls.hpp"
#include "musatop/util/clock.hpp"
#include "musatop/util/unique_fd.hpp"

namespace musatop::net {

enum class Io {
    done,        // the step finished
    want_read,   // call again when the socket is readable
    want_write,  // ... writable
    closed,      // the client left, or the connection failed
    plain_http,  // (TLS handshake) the client spoke HTTP in the clear
};

class ServerConnection {
public:
    ServerConnection(std::uint64_t id, UniqueFd fd, std::string address, MonoTime now);
    ~ServerConnection();
    ServerConnection(const ServerConnection&) = delete;
    ServerConnection& operator=(const ServerConnection&) = delete;

    std::uint64_t id() const { return id_; }
    int fd() const { return fd_.get(); }
    const std::string& address() const { return address_; }

    // Starts TLS on the first readable byte (a client that sends nothing costs no
    // session) and takes the handshake as far as the socket allows.
    Io handshake(const std::shared_ptr<TlsContext>& context);
    bool tls() const { return ssl_ != nullptr; }

    // Reads what is there, at most up to `cap` buffered bytes.
    Io receive(std::size_t cap);
    std::string& input() { return input_; }

    // What to write next; `write` goes on until it is all sent or the socket is full.
    void set_output(std::string bytes, std::shared_ptr<const std::string> body);
    Io write();
    bool output_done() const;

    // Our side ends (TLS close_notify, then FIN); what the client still sends is
    // read and dropped by `drain` until it closes or 64 KiB went.
    void shut_down_writes();
    Io drain();

    // The loop's bookkeeping.
    Phase phase = Phase::handshake;
    bool first_request = true;
    MonoTime since;     // when the phase began
    MonoTime deadline;  // when the phase must be over
    std::size_t served = 0;
    bool keep_alive = false;                  // after the answer being written
    std::uint32_t watched = 0;                // the epoll events registered
    std::shared_ptr<TlsContext> tls_context;  // until the handshake is done

    ConnectionView view() const { return {id_, phase, first_request, since, address_}; }

private:
    Io tls_result(int result);

    std::uint64_t id_;
    UniqueFd fd_;
    std::string address_;
    SSL* ssl_ = nullptr;
    std::string input_;
    std::string output_;                       // the head, or head and body when small
    std::shared_ptr<const std::string> body_;  // a large shared body, written after
    std::size_t output_sent_ = 0;
    std::size_t body_sent_ = 0;
    std::size_t dropped_ = 0;
};

}  // namespace musatop::net
