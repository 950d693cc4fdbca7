// A node that speaks HTTP badly, on a loopback port, for the cluster tests: it
// never answers, answers HTML or another schema, answers only after a delay, or
// answers (chunked, keeping the connection) and then drops the connection unsaid.
// One thread, plain sockets; stopped and joined by the destructor.
#pragma once

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "loopback_listener.hpp"

namespace musatop::testing {

class FakeNode {
public:
    enum class Behaviour { silent, html, other_schema, slow, forgetful, cut_short, http09 };

    // `body`: what `slow` sends after `delay` and `forgetful` at once (a musatop snapshot).
    explicit FakeNode(Behaviour behaviour, std::string body = "",
                      std::chrono::milliseconds delay = std::chrono::seconds(2));
    FakeNode(const FakeNode&) = delete;
    FakeNode& operator=(const FakeNode&) = delete;
    ~FakeNode();

    int port() const { return listener_.port; }
    int requests() const { return requests_.load(); }  // accepted so far
    std::string address() const { return "127.0.0.1:" + std::to_string(listener_.port); }

private:
    void serve();

    Behaviour behaviour_;
    std::string body_;
    std::chrono::milliseconds delay_;
    LoopbackListener listener_{"FakeNode"};
    std::atomic<int> requests_{0};
    std::thread thread_;
};

}  // namespace musatop::testing
