#include "fake_node.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <stdexcept>
#include <vector>

namespace musatop::testing {
namespace {

void send_all(int fd, const std::string& data) {
    std::size_t sent = 0;
    while (sent < data.size()) {
        const ssize_t n = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
        if (n <= 0) return;
        sent += static_cast<std::size_t>(n);
    }
}

std::string reply(const std::string& type, const std::string& body) {
    return "HTTP/1.1 200 OK\r\nContent-Type: " + type + "\r\nContent-Length: " + std::to_string(body.size()) +
           "\r\nConnection: close\r\n\r\n" + body;
}

}  // namespace

FakeNode::FakeNode(Behaviour behaviour, std::string body, std::chrono::milliseconds delay)
    : behaviour_(behaviour), body_(std::move(body)), delay_(delay) {
    thread_ = std::thread([this] { serve(); });
}

FakeNode::~FakeNode() {
    listener_.stop();
    thread_.join();
}

void FakeNode::serve() {
    std::vector<int> held;  // `silent` keeps every connection open, unanswered
    bool stopping = false;
    while (!stopping) {
        pollfd fds[2] = {{listener_.fd, POLLIN, 0}, {listener_.stop_pipe[0], POLLIN, 0}};
        if (::poll(fds, 2, 1000) < 0) continue;
        if (fds[1].revents) break;
        if (!(fds[0].revents & POLLIN)) continue;
        const int fd = ::accept4(listener_.fd, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0) continue;
        ++requests_;
        char buffer[4096];
        (void)::recv(fd, buffer, sizeof buffer, 0);  // the request; its content does not matter
        switch (behaviour_) {
            case Behaviour::silent: held.push_back(fd); continue;
            case Behaviour::html:
                send_all(fd, reply("text/html", "<!DOCTYPE html><html><body>It works!</body></html>\n"));
                break;
            case Behaviour::other_schema:
                send_all(fd, reply("application/json", R"({"schema_version": 2, "gpus": []})"));
                break;
            case Behaviour::forgetful: {  // as a server whose idle connections time out
                const std::string half = body_.substr(0, body_.size() / 2);
                char head[64];
                std::snprintf(head, sizeof head, "%zx\r\n", half.size());
                std::string answer =
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
                answer += head + half + "\r\n";
                std::snprintf(head, sizeof head, "%zx\r\n", body_.size() - half.size());
                answer += head + body_.substr(half.size()) + "\r\n0\r\n\r\n";
                send_all(fd, answer);
                break;
            }
            case Behaviour::cut_short:  // promises more than it sends, then closes
                send_all(fd, "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n{\"schema_version\"");
                break;
            case Behaviour::http09:  // HTTP/0.9: the body alone, ended by the close
                send_all(fd, body_);
                break;
            case Behaviour::slow: {
                pollfd stop{listener_.stop_pipe[0], POLLIN, 0};
                stopping = ::poll(&stop, 1, static_cast<int>(delay_.count())) > 0;
                if (!stopping) send_all(fd, reply("application/json", body_));
                break;
            }
        }
        ::close(fd);
    }
    for (int fd : held) ::close(fd);
}

}  // namespace musatop::testing
