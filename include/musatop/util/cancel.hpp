// Cancellation of a round in progress: an eventfd that becomes readable. Waiting
// code polls the descriptor next to its own (child pipes, sockets), so a cancel
// interrupts a hung external command at once; a signal handler may trigger it
// (write(2) is async-signal-safe).
#pragma once

#include "musatop/util/unique_fd.hpp"

namespace musatop {

// What a round receives: it can look, never trigger.
class CancelToken {
public:
    CancelToken() = default;  // never cancelled
    explicit CancelToken(int fd) : fd_(fd) {}
    int fd() const { return fd_; }  // -1: cannot be cancelled
    bool requested() const;

private:
    int fd_ = -1;
};

// What the owner of a round holds.
class Canceller {
public:
    Canceller();
    CancelToken token() const { return CancelToken(fd_.get()); }
    void cancel() const;  // async-signal-safe
    int fd() const { return fd_.get(); }

private:
    UniqueFd fd_;
};

}  // namespace musatop
