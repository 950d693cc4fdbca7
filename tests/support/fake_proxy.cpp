#include "fake_proxy.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stdexcept>

namespace musatop::testing {
namespace {

int connect_loopback(int port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    if (fd >= 0 && ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0) return fd;
    if (fd >= 0) ::close(fd);
    return -1;
}

bool send_all(int fd, const std::string& data) {
    for (std::size_t sent = 0; sent < data.size();) {
        const ssize_t n = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
        if (n <= 0) return false;
        sent += static_cast<std::size_t>(n);
    }
    return true;
}

// "127.0.0.1:PORT" at the start of `text` (after "http://" for the absolute form); 0 otherwise.
int loopback_port(std::string text) {
    if (text.rfind("http://", 0) == 0) text = text.substr(7);
    if (text.rfind("127.0.0.1:", 0) != 0) return 0;
    return std::atoi(text.c_str() + 10);
}

}  // namespace

FakeProxy::FakeProxy(std::string refused_path) : refused_path_(std::move(refused_path)) {
    thread_ = std::thread([this] { accept_loop(); });
}

FakeProxy::~FakeProxy() {
    listener_.stop();
    thread_.join();
    for (auto& t : connections_) t.join();
}

std::vector<std::string> FakeProxy::heads() const {
    std::lock_guard lock(mutex_);
    return heads_;
}

std::vector<std::string> FakeProxy::request_lines() const {
    std::vector<std::string> lines;
    for (const auto& head : heads()) lines.push_back(head.substr(0, head.find("\r\n")));
    return lines;
}

void FakeProxy::accept_loop() {
    for (;;) {
        pollfd fds[2] = {{listener_.fd, POLLIN, 0}, {listener_.stop_pipe[0], POLLIN, 0}};
        if (::poll(fds, 2, 1000) < 0) continue;
        if (fds[1].revents) return;
        if (!(fds[0].revents & POLLIN)) continue;
        const int fd = ::accept4(listener_.fd, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd >= 0) connections_.emplace_back([this, fd] { relay(fd); });
    }
}

void FakeProxy::relay(int client) {
    std::string head;
    char buffer[16384];
    while (head.find("\r\n\r\n") == std::string::npos) {
        pollfd fds[2] = {{client, POLLIN, 0}, {listener_.stop_pipe[0], POLLIN, 0}};
        if (::poll(fds, 2, 5000) <= 0 || fds[1].revents) return (void)::close(client);
        const ssize_t n = ::recv(client, buffer, sizeof buffer, 0);
        if (n <= 0) return (void)::close(client);
        head.append(buffer, static_cast<std::size_t>(n));
    }
    const auto head_end = head.find("\r\n\r\n") + 4;
    {
        std::lock_guard lock(mutex_);
        heads_.push_back(head.substr(0, head_end));
    }
    const std::string request_line = head.substr(0, head.find("\r\n"));
    if (!refused_path_.empty() && request_line.find(refused_path_) != std::string::npos) {
        send_all(client,
                 "HTTP/1.1 404 Not Found\r\nContent-Length: 19\r\nConnection: close\r\n\r\n404 page not found\n");
        return (void)::close(client);
    }
    const bool tunnel = head.rfind("CONNECT ", 0) == 0;
    const auto target_start = head.find(' ') + 1;
    const int port = loopback_port(head.substr(target_start, head.find(' ', target_start) - target_start));
    const int server = port > 0 ? connect_loopback(port) : -1;
    if (server < 0) {
        send_all(client, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        return (void)::close(client);
    }
    const bool started = tunnel ? send_all(client, "HTTP/1.1 200 Connection established\r\n\r\n") &&
                                      send_all(server, head.substr(head_end))
                                : send_all(server, head);
    for (bool open = started; open;) {
        pollfd fds[3] = {{client, POLLIN, 0}, {server, POLLIN, 0}, {listener_.stop_pipe[0], POLLIN, 0}};
        if (::poll(fds, 3, 10000) <= 0 || fds[2].revents) break;
        for (int side = 0; side < 2 && open; ++side) {
            if (!fds[side].revents) continue;
            const ssize_t n = ::recv(fds[side].fd, buffer, sizeof buffer, 0);
            open = n > 0 && send_all(fds[1 - side].fd, std::string(buffer, static_cast<std::size_t>(n)));
        }
    }
    ::close(server);
    ::close(client);
}

}  // namespace musatop::testing
