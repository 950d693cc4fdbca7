#include "idle_connections.hpp"

#include <sys/socket.h>

#include <algorithm>

namespace musatop::net {

void IdleConnections::enter(int fd, MonoTime since) {
    std::lock_guard lock(mutex_);
    since_[fd] = since;
}

void IdleConnections::leave(int fd) {
    std::lock_guard lock(mutex_);
    since_.erase(fd);
}

bool IdleConnections::evict_oldest() {
    std::lock_guard lock(mutex_);
    const auto oldest = std::min_element(since_.begin(), since_.end(),
                                         [](const auto& a, const auto& b) { return a.second < b.second; });
    if (oldest == since_.end()) return false;
    // The owner removes its entry under this lock before it closes the descriptor,
    // so the fd is still this connection's; shutdown wakes its poll with an end of
    // stream and it closes as a client that left.
    ::shutdown(oldest->first, SHUT_RDWR);
    since_.erase(oldest);
    return true;
}

}  // namespace musatop::net
