// (internal to the net layer) The agent's keep-alive connections that sit between
// requests. At the connection cap a new client is served by closing the one idle
// the longest, as nginx and Go's server do, rather than refused: otherwise a few
// dozen clients that keep a connection open and ask once a minute hold every slot
// and the scrapes that matter get 503.
#pragma once

#include <map>
#include <mutex>

#include "musatop/util/clock.hpp"

namespace musatop::net {

class IdleConnections {
public:
    // `fd` waits for its next request, its last one having come at `since`; it stays
    // open until it leaves.
    void enter(int fd, MonoTime since);
    void leave(int fd);
    // Shuts the longest-idle connection down (its reader sees the end of the stream
    // and closes it); false when none is idle.
    bool evict_oldest();

    // Marks a connection idle for the lifetime of the mark.
    class Mark {
    public:
        Mark(IdleConnections* registry, int fd, MonoTime since) : registry_(registry), fd_(fd) {
            if (registry_) registry_->enter(fd_, since);
        }
        ~Mark() {
            if (registry_) registry_->leave(fd_);
        }
        Mark(const Mark&) = delete;
        Mark& operator=(const Mark&) = delete;

    private:
        IdleConnections* registry_;
        int fd_;
    };

private:
    std::mutex mutex_;
    std::map<int, MonoTime> since_;  // an fd is unique while its connection is open
};

}  // namespace musatop::net
