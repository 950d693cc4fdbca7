#include "resolver.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <cstring>

namespace musatop::net {
namespace {

void set_port(SocketAddress& address, int port) {
    const auto value = htons(static_cast<std::uint16_t>(port));
    if (address.storage.ss_family == AF_INET) reinterpret_cast<sockaddr_in*>(&address.storage)->sin_port = value;
    if (address.storage.ss_family == AF_INET6) reinterpret_cast<sockaddr_in6*>(&address.storage)->sin6_port = value;
}

}  // namespace

std::vector<SocketAddress> literal_addresses(const std::string& host, int port) {
    SocketAddress a;
    auto* v4 = reinterpret_cast<sockaddr_in*>(&a.storage);
    auto* v6 = reinterpret_cast<sockaddr_in6*>(&a.storage);
    if (::inet_pton(AF_INET, host.c_str(), &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        a.length = sizeof(sockaddr_in);
    } else if (::inet_pton(AF_INET6, host.c_str(), &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        a.length = sizeof(sockaddr_in6);
    } else {
        return {};
    }
    set_port(a, port);
    return {a};
}

Lookup::Lookup(std::string name, int port) : request_(std::make_unique<Request>()), port_(port) {
    request_->name = std::move(name);
    request_->hints.ai_family = AF_UNSPEC;
    request_->hints.ai_socktype = SOCK_STREAM;
    request_->control.ar_name = request_->name.c_str();
    request_->control.ar_request = &request_->hints;
    gaicb* list[] = {&request_->control};
    started_ = ::getaddrinfo_a(GAI_NOWAIT, list, 1, nullptr) == 0;
    if (!started_) status_ = Status::failed;
}

Lookup::~Lookup() {
    if (!started_) return;
    if (status_ == Status::running) {
        if (::gai_cancel(&request_->control) == EAI_NOTCANCELED) {
            (void)request_.release();
            return;
        }
    }
    if (status_ == Status::running && ::gai_error(&request_->control) == 0) ::freeaddrinfo(request_->control.ar_result);
}

Lookup::Status Lookup::poll() {
    if (status_ != Status::running) return status_;
    const int result = ::gai_error(&request_->control);
    if (result == EAI_INPROGRESS) return status_;
    if (result == 0) {
        for (const addrinfo* a = request_->control.ar_result; a; a = a->ai_next) {
            if (a->ai_addrlen > sizeof(sockaddr_storage)) continue;
            SocketAddress address;
            std::memcpy(&address.storage, a->ai_addr, a->ai_addrlen);
            address.length = a->ai_addrlen;
            set_port(address, port_);
            addresses_.push_back(address);
        }
        ::freeaddrinfo(request_->control.ar_result);
    }
    status_ = addresses_.empty() ? Status::failed : Status::done;
    return status_;
}

}  // namespace musatop::net
