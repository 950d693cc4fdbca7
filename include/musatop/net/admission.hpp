// Who makes room when a client connects (pure: the server's loop asks it on every
// accept). A connection that is being answered is never closed for another; the
// others go in the order of what they cost the clients that matter least:
// lingering after a refusal, then idle keep-alive, then those whose first request
// has not arrived (a handshake, a head), then those not reading their answer, the
// oldest of each first, as nginx and Go's server close idle connections first.
// A single address may hold only its share of connections whose first request is
// still to come: past it, its own oldest goes, so one host opening sockets and
// sending nothing can never crowd out another's scrapes, nor its own new ones.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "musatop/util/clock.hpp"

namespace musatop::net {

enum class Phase {
    handshake,  // TLS, before the first request
    head,       // reading a request head
    idle,       // keep-alive, between requests
    queued,     // a head handed to the pool: answered or waiting for a worker
    writing,    // the answer being written
    closing,    // after a refusal: our side shut, the client's bytes dropped
};

struct ConnectionView {
    std::uint64_t id = 0;
    Phase phase = Phase::head;
    bool first_request = true;  // no request of this connection has been answered yet
    MonoTime since{};           // when it entered its phase (idle: its last request's head)
    std::string_view address;   // the client's IP address
};

// Still waiting for its first request: what an idle flood is made of.
bool pending(const ConnectionView& c);

struct Admission {
    std::vector<std::uint64_t> close;  // connections to close, in this order
    bool refuse_new = false;           // no room could be made
};

// `open` are the connections before the new one from `address` is counted.
Admission admit(std::span<const ConnectionView> open, std::string_view address, int max_open, int per_address_pending);

// What the limits resolve to for a process whose soft RLIMIT_NOFILE is `fd_limit`
// with `fds_in_use` already open.
int resolve_max_open(int configured, long fd_limit, int fds_in_use, int reserved_fds);
int resolve_per_address(int configured, int max_open);

}  // namespace musatop::net
