#include "loopback_listener.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stdexcept>

namespace musatop::testing {

LoopbackListener::LoopbackListener(const std::string& who) {
    fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(fd, 64) != 0 ||
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0 || ::pipe2(stop_pipe, O_CLOEXEC) != 0)
        throw std::runtime_error(who + ": cannot listen");
    port = ntohs(address.sin_port);
}

LoopbackListener::~LoopbackListener() {
    for (int f : {fd, stop_pipe[0], stop_pipe[1]})
        if (f >= 0) ::close(f);
}

void LoopbackListener::stop() const {
    if (::write(stop_pipe[1], "x", 1) < 0) {
        // the thread then ends at its next poll timeout
    }
}

}  // namespace musatop::testing
