// (internal to the net layer) Addresses for the client: literal ones at once,
// names through glibc's asynchronous resolver (getaddrinfo_a), which has no
// descriptor to wait on, so the client checks a lookup while it waits for sockets.
#pragma once

#include <netdb.h>
#include <sys/socket.h>

#include <memory>
#include <string>
#include <vector>

namespace musatop::net {

struct SocketAddress {
    sockaddr_storage storage{};
    socklen_t length = 0;
};

// The address of a literal IPv4 or IPv6 host; empty for a name.
std::vector<SocketAddress> literal_addresses(const std::string& host, int port);

class Lookup {
public:
    enum class Status { running, done, failed };
    // Starts resolving `name`; a lookup that cannot start is failed at once.
    Lookup(std::string name, int port);
    // A name glibc is still resolving cannot be freed under its threads: it is left
    // to them (a few bytes, only when musatop quits mid-lookup).
    ~Lookup();
    Lookup(const Lookup&) = delete;
    Lookup& operator=(const Lookup&) = delete;

    Status poll();
    std::vector<SocketAddress> take_addresses() { return std::move(addresses_); }

private:
    struct Request {
        std::string name;
        addrinfo hints{};
        gaicb control{};
    };
    std::unique_ptr<Request> request_;
    int port_;
    bool started_ = false;
    Status status_ = Status::running;
    std::vector<SocketAddress> addresses_;
};

}  // namespace musatop::net
