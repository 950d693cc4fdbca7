// An HTTP proxy on a loopback port, for the proxy rules of Prometheus mode: it
// records each request line it is sent, then relays bytes both ways between the
// client and the target (CONNECT host:port opens a tunnel after a 200; an
// absolute-form request is forwarded as it came). Only 127.0.0.1 targets are
// reached. A thread per connection, all joined by the destructor. With a refused
// path it stands in for a store without that API (Thanos Query has no
// /api/v1/targets): a connection whose first request names it gets a 404.
#pragma once

#include <atomic>
#include <mutex>
#include <string>
#include <thread>

#include "loopback_listener.hpp"
#include <vector>

namespace musatop::testing {

class FakeProxy {
public:
    explicit FakeProxy(std::string refused_path = "");
    FakeProxy(const FakeProxy&) = delete;
    FakeProxy& operator=(const FakeProxy&) = delete;
    ~FakeProxy();

    std::string url() const { return "http://127.0.0.1:" + std::to_string(listener_.port); }
    std::vector<std::string> request_lines() const;  // "CONNECT 127.0.0.1:9 HTTP/1.1", ...
    std::vector<std::string> heads() const;          // the whole heads, for header checks

private:
    void accept_loop();
    void relay(int client);

    LoopbackListener listener_{"FakeProxy"};
    std::string refused_path_;
    mutable std::mutex mutex_;
    std::vector<std::string> heads_;
    std::vector<std::thread> connections_;
    std::thread thread_;
};

}  // namespace musatop::testing
