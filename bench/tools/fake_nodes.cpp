// Many cluster nodes on one machine, for bench/cluster: listens on COUNT loopback
// ports from BASE and answers GET /api/v1/snapshot with SNAPSHOT_FILE and
// GET /metrics with METRICS_FILE, HTTP/1.1 keep-alive, one thread, epoll.
//   fake-nodes BASE COUNT SNAPSHOT_FILE METRICS_FILE     (runs until SIGTERM)
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

namespace {

std::string slurp(const char* path) {
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

std::string response(const std::string& type, const std::string& body) {
    return "HTTP/1.1 200 OK\r\nContent-Type: " + type + "\r\nContent-Length: " + std::to_string(body.size()) +
           "\r\n\r\n" + body;
}

volatile sig_atomic_t stop = 0;

}  // namespace

int main(int argc, char** argv) {
    if (argc != 5) {
        std::fprintf(stderr, "usage: fake-nodes BASE COUNT SNAPSHOT_FILE METRICS_FILE\n");
        return 2;
    }
    const int base = std::atoi(argv[1]), count = std::atoi(argv[2]);
    const std::string snapshot = response("application/json", slurp(argv[3]));
    const std::string metrics = response("text/plain; version=0.0.4", slurp(argv[4]));
    ::signal(SIGTERM, [](int) { stop = 1; });
    ::signal(SIGPIPE, SIG_IGN);
    const int epoll = ::epoll_create1(EPOLL_CLOEXEC);
    std::map<int, bool> listeners;
    for (int i = 0; i < count; ++i) {
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        const int one = 1;
        ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        address.sin_port = htons(static_cast<uint16_t>(base + i));
        if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(fd, 128) != 0) {
            std::fprintf(stderr, "fake-nodes: cannot listen on port %d\n", base + i);
            return 1;
        }
        epoll_event event{EPOLLIN, {.fd = fd}};
        ::epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event);
        listeners[fd] = true;
    }
    std::fprintf(stderr, "fake-nodes: %d nodes on 127.0.0.1:%d-%d\n", count, base, base + count - 1);
    std::map<int, std::string> pending;  // partial requests by connection
    epoll_event events[256];
    while (!stop) {
        const int n = ::epoll_wait(epoll, events, 256, 500);
        for (int i = 0; i < n; ++i) {
            const int fd = events[i].data.fd;
            if (listeners.count(fd)) {
                for (int client; (client = ::accept4(fd, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK)) >= 0;) {
                    epoll_event event{EPOLLIN, {.fd = client}};
                    ::epoll_ctl(epoll, EPOLL_CTL_ADD, client, &event);
                }
                continue;
            }
            char buffer[8192];
            const ssize_t got = ::recv(fd, buffer, sizeof buffer, 0);
            if (got <= 0) {
                pending.erase(fd);
                ::close(fd);
                continue;
            }
            std::string& request = pending[fd];
            request.append(buffer, static_cast<std::size_t>(got));
            for (std::size_t end; (end = request.find("\r\n\r\n")) != std::string::npos; request.erase(0, end + 4)) {
                const std::string& body = request.compare(0, 13, "GET /metrics ") == 0 ? metrics : snapshot;
                // Small answers on loopback: one send, blocking briefly when full.
                for (std::size_t sent = 0; sent < body.size();) {
                    const ssize_t n_sent = ::send(fd, body.data() + sent, body.size() - sent, MSG_NOSIGNAL);
                    if (n_sent > 0) sent += static_cast<std::size_t>(n_sent);
                    else if (n_sent < 0 && errno != EAGAIN) break;
                }
            }
        }
    }
    return 0;
}
