// A listening socket on a free 127.0.0.1 port and a pipe to stop its thread, for
// the tests' own servers (fake nodes, the fake proxy).
#pragma once

#include <string>

namespace musatop::testing {

struct LoopbackListener {
    int fd = -1;
    int port = 0;
    int stop_pipe[2] = {-1, -1};  // the thread polls [0]; stop() writes [1]

    // Throws std::runtime_error naming `who` when it cannot listen.
    explicit LoopbackListener(const std::string& who);
    ~LoopbackListener();
    LoopbackListener(const LoopbackListener&) = delete;
    LoopbackListener& operator=(const LoopbackListener&) = delete;
    void stop() const;
};

}  // namespace musatop::testing
