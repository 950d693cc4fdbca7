#include "http_server.hpp"

#include <sys/socket.h>
#include <unistd.h>

#include <type_traits>

namespace musatop::serve {
namespace {

template <typename Base>
class BoundedServer final : public Base {
public:
    template <typename... Args>
    BoundedServer(const ConnectionLimits& limits, int stop_fd, Args&&... args)
        : Base(std::forward<Args>(args)...), limits_(limits), stop_fd_(stop_fd) {
        // One worker per allowed connection, and a few more that answer 503 when
        // every allowed one is busy, instead of queueing the caller unseen.
        const auto workers = static_cast<std::size_t>(limits.max_connections + 4);
        this->new_task_queue = [workers] { return new httplib::ThreadPool(workers); };
        this->set_keep_alive_timeout(std::chrono::duration_cast<std::chrono::seconds>(limits.idle_timeout).count());
        this->set_keep_alive_max_count(kMaxRequestsPerConnection);
    }

private:
    // Replaces httplib's own loop over a connection (see connection.hpp for why).
    bool process_and_close_socket(socket_t sock) override {
        SSL* ssl = nullptr;
        if constexpr (std::is_same_v<Base, httplib::SSLServer>) {
            ssl = SSL_new(this->ssl_context());
            if (ssl) SSL_set_fd(ssl, sock);
        }
        struct Closer {
            int fd;
            SSL* ssl;
            ~Closer() {
                if (ssl) {
                    SSL_shutdown(ssl);
                    SSL_free(ssl);
                }
                ::shutdown(fd, SHUT_RDWR);
                ::close(fd);
            }
        } closer{sock, ssl};
        if constexpr (std::is_same_v<Base, httplib::SSLServer>) {
            if (!ssl) return false;
        }
        Connection connection(sock, ssl, stop_fd_, limits_);
        if (ssl && !connection.tls_handshake()) return false;

        struct Slot {
            std::atomic<int>& active;
            int taken;
            explicit Slot(std::atomic<int>& a) : active(a), taken(++a) {}
            ~Slot() { --active; }
        } slot(active_);
        if (slot.taken > limits_.max_connections) {
            connection.refuse(503, "Service Unavailable", "too many connections; try again\n");
            return true;
        }
        for (std::size_t served = 0; served < kMaxRequestsPerConnection; ++served) {
            switch (connection.read_head(served == 0)) {
                case HeadStatus::complete: break;
                case HeadStatus::too_large:
                    connection.refuse(431, "Request Header Fields Too Large", "request line and headers over 8 KiB\n");
                    return true;
                case HeadStatus::has_body:
                    connection.refuse(413, "Payload Too Large", "musatop serve takes no request bodies\n");
                    return true;
                case HeadStatus::closed:
                case HeadStatus::timed_out:
                case HeadStatus::stopped: return true;
            }
            bool closed_by_client = false;
            const bool last = served + 1 == kMaxRequestsPerConnection || !this->is_running();
            const bool written = this->process_request(connection, last, closed_by_client, nullptr) &&
                                 connection.flush();
            connection.finish_request();
            if (!written || closed_by_client || last) return true;
        }
        return true;
    }

    ConnectionLimits limits_;
    int stop_fd_;
    std::atomic<int> active_{0};
};

}  // namespace

Result<std::unique_ptr<httplib::Server>> make_http_server(const std::optional<TlsFiles>& tls,
                                                          const ConnectionLimits& limits, int stop_fd) {
    if (!tls) return std::unique_ptr<httplib::Server>(new BoundedServer<httplib::Server>(limits, stop_fd));
    for (const auto* path : {&tls->cert_file, &tls->key_file})
        if (::access(path->c_str(), R_OK) != 0) return Error{"cannot read TLS file " + *path};
    auto server = std::make_unique<BoundedServer<httplib::SSLServer>>(limits, stop_fd, tls->cert_file.c_str(),
                                                                       tls->key_file.c_str());
    if (!server->is_valid())
        return Error{"cannot use the TLS certificate " + tls->cert_file + " with the key " + tls->key_file};
    return std::unique_ptr<httplib::Server>(std::move(server));
}

}  // namespace musatop::serve
