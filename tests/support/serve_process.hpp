// A `musatop serve` started by a test on a free loopback port, and the raw HTTP the
// tests speak to it (plain sockets, so every byte on the wire is the test's choice).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "scenario.hpp"

namespace musatop::testing {

// A TCP port on 127.0.0.1 that nothing listened on a moment ago.
int free_port();

class ServeProcess {
public:
    // Starts `musatop serve --listen 127.0.0.1:PORT args...` in the scenario's
    // environment and waits (bounded) until it logs that it listens, or exits.
    // `fd_limit` above 0: RLIMIT_NOFILE of the agent, soft and hard.
    ServeProcess(const Scenario& scenario, const std::vector<std::string>& args, int port = free_port(),
                 int fd_limit = 0);
    ServeProcess(const ServeProcess&) = delete;
    ServeProcess& operator=(const ServeProcess&) = delete;
    ~ServeProcess();

    bool listening() const { return listening_; }
    int port() const { return port_; }
    pid_t pid() const { return pid_; }
    std::string log() const;  // what it wrote to stderr so far
    // Sends `signal` and waits (bounded) for the exit; the wait status, or -1.
    int stop(int signal, std::chrono::milliseconds limit = std::chrono::seconds(5));

private:
    const Scenario& scenario_;
    int port_;
    pid_t pid_ = -1;
    bool listening_ = false;
};

// The connection cap the agent's log announced ("at most N connections"), or 0.
int connection_cap(const std::string& log);

struct HttpReply {
    bool ok = false;  // a complete status line and headers arrived
    int status = 0;
    std::map<std::string, std::string> headers;  // names lower-cased
    std::string body;
};

// Sends `raw` (a whole request, bytes as given) and reads the reply until the
// connection closes or Content-Length is satisfied; bounded by `limit`.
HttpReply http_raw(int port, const std::string& raw, std::chrono::milliseconds limit = std::chrono::seconds(5));

// GET or HEAD `path` with Connection: close and optional extra header lines.
HttpReply http_get(int port, const std::string& path, const std::string& extra_headers = "",
                   const std::string& method = "GET");

// The same over TLS, the server's certificate checked against `ca_file` and the
// name 127.0.0.1 (OpenSSL directly: no client code of musatop's own is under test).
HttpReply https_get(int port, const std::string& path, const std::string& ca_file,
                    const std::string& extra_headers = "");

// A connected socket to 127.0.0.1:port (closed by the destructor).
class RawConnection {
public:
    explicit RawConnection(int port);
    RawConnection(const RawConnection&) = delete;
    RawConnection& operator=(const RawConnection&) = delete;
    ~RawConnection();
    bool connected() const { return fd_ >= 0; }
    int fd() const { return fd_; }
    bool send(const std::string& bytes) const;
    // Reads until the peer closes or `limit` passes; `closed` says which.
    std::string read_until_closed(std::chrono::milliseconds limit, bool& closed) const;

private:
    int fd_ = -1;
};

}  // namespace musatop::testing
