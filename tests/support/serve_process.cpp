#include "serve_process.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>

#include <stdexcept>
#include <thread>

#include "test_support.hpp"

extern char** environ;

namespace musatop::testing {
namespace {

sockaddr_in loopback(int port) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return address;
}

std::string lower(std::string text) {
    for (char& c : text)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return text;
}

HttpReply parse_reply(const std::string& raw) {
    HttpReply reply;
    const auto end = raw.find("\r\n\r\n");
    if (end == std::string::npos || raw.compare(0, 9, "HTTP/1.1 ") != 0) return reply;
    reply.status = std::atoi(raw.c_str() + 9);
    std::size_t line = raw.find("\r\n") + 2;
    while (line < end) {
        const auto next = raw.find("\r\n", line);
        const auto colon = raw.find(':', line);
        if (colon != std::string::npos && colon < next) {
            std::string value = raw.substr(colon + 1, next - colon - 1);
            while (!value.empty() && value.front() == ' ') value.erase(0, 1);
            reply.headers[lower(raw.substr(line, colon - line))] = value;
        }
        line = next + 2;
    }
    reply.body = raw.substr(end + 4);
    reply.ok = true;
    return reply;
}

}  // namespace

int free_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address = loopback(0);
    if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) throw std::runtime_error("bind");
    socklen_t length = sizeof address;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
    ::close(fd);
    return ntohs(address.sin_port);
}

ServeProcess::ServeProcess(const Scenario& scenario, const std::vector<std::string>& args, int port, int fd_limit)
    : scenario_(scenario), port_(port) {
    std::vector<std::string> argv = {MUSATOP_BINARY, "serve", "--listen", "127.0.0.1:" + std::to_string(port)};
    argv.insert(argv.end(), args.begin(), args.end());
    const std::string log_path = (scenario.dir() / "serve.log").string();
    std::vector<std::string> env = {"PATH=" + scenario.path_variable(), "FAKE_GMI_DIR=" + scenario.dir().string(),
                                    "MUSA_HOME=", "MUSA_PATH=", "TZ=UTC"};
    for (const auto& entry : scenario.private_home()) env.push_back(entry);
    for (char** e = environ; *e; ++e) {
        const std::string entry(*e);
        const std::string name = entry.substr(0, entry.find('=') + 1);
        bool overridden = false;
        for (const auto& mine : env) overridden = overridden || mine.rfind(name, 0) == 0;
        if (!overridden) env.push_back(entry);
    }
    std::vector<char*> cargv, cenv;
    for (auto& a : argv) cargv.push_back(a.data());
    for (auto& e : env) cenv.push_back(e.data());
    cargv.push_back(nullptr);
    cenv.push_back(nullptr);
    pid_ = ::fork();
    if (pid_ == 0) {
        const int null = ::open("/dev/null", O_RDWR);
        const int log = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        ::dup2(null, 0);
        ::dup2(null, 1);
        ::dup2(log, 2);
        if (fd_limit > 0) {
            const rlimit limit{static_cast<rlim_t>(fd_limit), static_cast<rlim_t>(fd_limit)};
            ::setrlimit(RLIMIT_NOFILE, &limit);
        }
        ::execve(cargv[0], cargv.data(), cenv.data());
        ::_exit(127);
    }
    listening_ = wait_for(
        [&] {
            // The whole line: stderr may hand it over in more than one write.
            const std::string text = log();
            const auto at = text.find("listening on");
            if (at != std::string::npos && text.find('\n', at) != std::string::npos) return true;
            int status = 0;
            if (::waitpid(pid_, &status, WNOHANG) == pid_) {
                pid_ = -1;
                return true;
            }
            return false;
        },
        std::chrono::seconds(10), std::chrono::milliseconds(5));
    listening_ = listening_ && pid_ > 0;
}

ServeProcess::~ServeProcess() {
    if (pid_ > 0) stop(SIGKILL);
}

std::string ServeProcess::log() const {
    try {
        return read_text(scenario_.dir() / "serve.log");
    } catch (const std::exception&) {
        return {};
    }
}

int connection_cap(const std::string& log) {
    const auto at = log.find("at most ");
    return at == std::string::npos ? 0 : std::atoi(log.c_str() + at + 8);
}

int ServeProcess::stop(int signal, std::chrono::milliseconds limit) {
    if (pid_ <= 0) return -1;
    ::kill(pid_, signal);
    int status = -1;
    const bool exited = wait_for([&] { return ::waitpid(pid_, &status, WNOHANG) == pid_; }, limit);
    if (!exited) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
        status = -1;
    }
    pid_ = -1;
    return status;
}

RawConnection::RawConnection(int port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address = loopback(port);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
        ::close(fd_);
        fd_ = -1;
    }
}

RawConnection::~RawConnection() {
    if (fd_ >= 0) ::close(fd_);
}

bool RawConnection::send(const std::string& bytes) const {
    return ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(bytes.size());
}

std::string RawConnection::read_until_closed(std::chrono::milliseconds limit, bool& closed) const {
    std::string out;
    closed = false;
    const auto give_up = std::chrono::steady_clock::now() + limit;
    for (;;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(give_up - std::chrono::steady_clock::now()).count();
        if (left <= 0) return out;
        pollfd fd{fd_, POLLIN, 0};
        if (::poll(&fd, 1, static_cast<int>(left)) <= 0) continue;
        char buffer[65536];
        const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
        if (n <= 0) {
            closed = true;
            return out;
        }
        out.append(buffer, static_cast<std::size_t>(n));
        // A complete reply with a Content-Length is enough for callers that wait for it.
        const HttpReply reply = parse_reply(out);
        const auto length = reply.headers.find("content-length");
        if (reply.ok && length != reply.headers.end() &&
            reply.body.size() >= static_cast<std::size_t>(std::stoul(length->second)) && !reply.body.empty())
            return out;
    }
}

HttpReply http_raw(int port, const std::string& raw, std::chrono::milliseconds limit) {
    RawConnection connection(port);
    if (!connection.connected() || !connection.send(raw)) return {};
    bool closed = false;
    return parse_reply(connection.read_until_closed(limit, closed));
}

HttpReply http_get(int port, const std::string& path, const std::string& extra_headers, const std::string& method) {
    return http_raw(
        port, method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" + extra_headers + "\r\n");
}

HttpReply https_get(int port, const std::string& path, const std::string& ca_file, const std::string& extra_headers) {
    RawConnection connection(port);
    if (!connection.connected()) return {};
    std::unique_ptr<SSL_CTX, decltype(&SSL_CTX_free)> context(SSL_CTX_new(TLS_client_method()), SSL_CTX_free);
    SSL_CTX_set_verify(context.get(), SSL_VERIFY_PEER, nullptr);
    if (SSL_CTX_load_verify_locations(context.get(), ca_file.c_str(), nullptr) != 1) return {};
    std::unique_ptr<SSL, decltype(&SSL_free)> ssl(SSL_new(context.get()), SSL_free);
    const timeval limit{5, 0};
    ::setsockopt(connection.fd(), SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
    SSL_set_fd(ssl.get(), connection.fd());
    X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl.get()), "127.0.0.1");
    if (SSL_connect(ssl.get()) != 1) return {};
    const std::string request =
        "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" + extra_headers + "\r\n";
    if (SSL_write(ssl.get(), request.data(), static_cast<int>(request.size())) <= 0) return {};
    std::string raw;
    char buffer[16384];
    for (int n; (n = SSL_read(ssl.get(), buffer, sizeof buffer)) > 0;) raw.append(buffer, static_cast<std::size_t>(n));
    return parse_reply(raw);
}

}  // namespace musatop::testing
