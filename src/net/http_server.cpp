#include "musatop/net/http_server.hpp"

#include <arpa/inet.h>
#include <dirent.h>
#include <netdb.h>
#include <netinet/in.h>
#include <openssl/crypto.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <optional>
#include <unordered_map>

#include "answer_pool.hpp"
#include "musatop/net/admission.hpp"
#include "responder.hpp"
#include "server_connection.hpp"

namespace musatop::net {
namespace {

// epoll ids below kFirstConnection are the server's own descriptors.
constexpr std::uint64_t kListener = 1, kStop = 2, kAnswers = 3, kFirstConnection = 16;
constexpr std::chrono::milliseconds kLinger{500};
constexpr std::chrono::milliseconds kAcceptPause{100};
constexpr int kAcceptsPerWakeup = 64;

// Binds one address; an error is errno's text.
Result<UniqueFd> bind_one(const std::string& host, int port) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICHOST | AI_NUMERICSERV;
    addrinfo* found = nullptr;
    const std::string service = std::to_string(port);
    if (::getaddrinfo(host.c_str(), service.c_str(), &hints, &found) != 0 || !found)
        return Error{"the address cannot be used"};
    std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> guard(found, ::freeaddrinfo);
    UniqueFd fd(::socket(found->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
    if (!fd.valid()) return Error{std::strerror(errno)};
    // SO_REUSEADDR for restarts over TIME_WAIT; never SO_REUSEPORT, which would let
    // a second agent share the port silently.
    const int yes = 1, no = 0;
    ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    if (found->ai_family == AF_INET6) ::setsockopt(fd.get(), IPPROTO_IPV6, IPV6_V6ONLY, &no, sizeof no);
    if (::bind(fd.get(), found->ai_addr, found->ai_addrlen) != 0 || ::listen(fd.get(), SOMAXCONN) != 0)
        return Error{std::strerror(errno)};
    return fd;
}

// The client's IP address as text; an IPv4 client of an IPv6 socket as IPv4, so
// that its share is counted once.
std::string address_text(const sockaddr_storage& address) {
    char text[INET6_ADDRSTRLEN] = {};
    if (address.ss_family == AF_INET6) {
        const auto& in6 = reinterpret_cast<const sockaddr_in6&>(address);
        if (IN6_IS_ADDR_V4MAPPED(&in6.sin6_addr)) {
            ::inet_ntop(AF_INET, &in6.sin6_addr.s6_addr[12], text, sizeof text);
        } else {
            ::inet_ntop(AF_INET6, &in6.sin6_addr, text, sizeof text);
        }
    } else if (address.ss_family == AF_INET) {
        ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in&>(address).sin_addr, text, sizeof text);
    }
    return text;
}

int open_descriptors() {
    DIR* dir = ::opendir("/proc/self/fd");
    if (!dir) return 16;  // no /proc: a guess of what a starting process holds
    int count = 0;
    while (::readdir(dir)) ++count;
    ::closedir(dir);
    return std::max(0, count - 3);  // ".", ".." and the directory's own descriptor
}

long soft_fd_limit() {
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 1 << 20;
    return static_cast<long>(limit.rlim_cur);
}

}  // namespace

struct HttpServer::State {
    UniqueFd listener;
    ServerOptions options;
    int max_open = 0;
    int per_address = 0;
    UniqueFd epoll;
    std::unordered_map<std::uint64_t, std::unique_ptr<ServerConnection>> connections;
    std::uint64_t next_id = kFirstConnection;
    int answering = 0;  // requests in the pool
    struct Waiting {
        std::uint64_t connection;
        Lane lane;
        Job job;
    };
    std::deque<Waiting> waiting;  // complete heads waiting for the pool
    std::unique_ptr<Responder> responder;
    std::unique_ptr<AnswerPool> pool;
    std::optional<MonoTime> accept_paused_until;

    const ServerLimits& limits() const { return options.limits; }

    void watch(ServerConnection& c, std::uint32_t events) {
        if (c.watched == events) return;
        epoll_event event{};
        event.events = events;
        event.data.u64 = c.id();
        const int op = events == 0 ? EPOLL_CTL_DEL : c.watched == 0 ? EPOLL_CTL_ADD : EPOLL_CTL_MOD;
        ::epoll_ctl(epoll.get(), op, c.fd(), &event);
        c.watched = events;
    }

    void watch_for(ServerConnection& c, Io want) {
        watch(c, want == Io::want_write ? static_cast<std::uint32_t>(EPOLLOUT) : static_cast<std::uint32_t>(EPOLLIN));
    }

    void close(std::uint64_t id) { connections.erase(id); }  // the descriptor leaves the epoll set with it

    void enter(ServerConnection& c, Phase phase, MonoTime since, std::chrono::milliseconds limit) {
        c.phase = phase;
        c.since = since;
        c.deadline = mono_now() + limit;
    }

    // A complete answer of our own, then the connection ends.
    void refuse(ServerConnection& c, int status, std::string_view body) {
        c.set_output(refusal_bytes(status, body), nullptr);
        c.keep_alive = false;
        enter(c, Phase::writing, mono_now(), limits().write_timeout);
        write_on(c);
    }

    void write_on(ServerConnection& c) {
        const Io result = c.write();
        if (result == Io::closed) return close(c.id());
        if (result != Io::done) return watch_for(c, result);
        if (!c.keep_alive) {
            c.shut_down_writes();
            enter(c, Phase::closing, mono_now(), kLinger);
            return watch(c, EPOLLIN);
        }
        c.first_request = false;
        enter(c, Phase::idle, c.since, limits().idle_timeout);
        read_on(c);  // a pipelined request may be buffered already
    }

    void read_on(ServerConnection& c) {
        const Io result = c.receive(limits().max_head_bytes);
        auto& input = c.input();
        if (c.phase == Phase::idle && !input.empty()) enter(c, Phase::head, mono_now(), limits().head_timeout);
        const std::size_t end = find_head_end(input);
        if (end != std::string::npos && end <= limits().max_head_bytes) return dispatch(c, end);
        if (input.size() >= limits().max_head_bytes) return refuse(c, 431, "request line and headers over 8 KiB\n");
        if (result == Io::closed) return close(c.id());
        watch_for(c, result == Io::done ? Io::want_read : result);
    }

    void dispatch(ServerConnection& c, std::size_t end) {
        std::string head = c.input().substr(0, end);
        c.input().erase(0, end);
        if (head_has_body(head)) return refuse(c, 413, "musatop serve takes no request bodies\n");
        const auto request = parse_request_head(head);
        if (!request) return refuse(c, 400, "malformed request\n");
        const Lane lane = options.lane ? options.lane(*request) : Lane::fast;
        if (lane == Lane::slow && pool->queued(Lane::slow) >= limits().slow_queue)
            return refuse(c, 503, "too many new credentials being checked; try again\n");
        const bool last = ++c.served >= limits().max_requests_per_connection;
        c.phase = Phase::queued;
        c.since = mono_now();  // the rank it keeps as idle after the answer: when this request came
        watch(c, 0);
        waiting.push_back(Waiting{c.id(), lane, Job{c.id(), std::move(head), last}});
        start_waiting();
    }

    // Requests go to the pool in the order they came, `max_answering` at a time: a
    // connection that pipelines many gets back in line after each answer, so one
    // client's flood delays another's scrape by a turn, never refuses it.
    void start_waiting() {
        while (answering < limits().max_answering && !waiting.empty()) {
            Waiting next = std::move(waiting.front());
            waiting.pop_front();
            if (!connections.count(next.connection)) continue;
            ++answering;
            pool->submit(next.lane, std::move(next.job));
        }
    }

    void on_answers() {
        auto answers = pool->take();
        answering -= static_cast<int>(answers.size());
        start_waiting();
        for (auto& answer : answers) {
            const auto found = connections.find(answer.connection);
            if (found == connections.end()) continue;
            ServerConnection& c = *found->second;
            c.keep_alive = answer.keep_alive;
            c.set_output(std::move(answer.bytes), std::move(answer.body));
            c.phase = Phase::writing;  // `since` stays the request's time
            c.deadline = mono_now() + limits().write_timeout;
            write_on(c);
        }
    }

    void handshake_on(ServerConnection& c) {
        const Io result = c.handshake(c.tls_context);
        if (result == Io::plain_http) return refuse(c, 400, "Client sent an HTTP request to an HTTPS server.\n");
        if (result == Io::closed) return close(c.id());
        if (result != Io::done) return watch_for(c, result);
        c.tls_context.reset();
        c.phase = Phase::head;  // the deadline from the accept goes on
        read_on(c);
    }

    void step(std::uint64_t id) {
        const auto found = connections.find(id);
        if (found == connections.end()) return;  // closed earlier in this batch
        ServerConnection& c = *found->second;
        switch (c.phase) {
            case Phase::handshake: return handshake_on(c);
            case Phase::head:
            case Phase::idle: return read_on(c);
            case Phase::writing: return write_on(c);
            case Phase::closing:
                if (c.drain() == Io::closed) close(id);
                return;
            case Phase::queued: return;
        }
    }

    // A connection gets one last read before it goes: a head that arrived behind
    // a burst of connects, or on a kept connection just as it was chosen, is
    // answered, not dropped (0.44 % of requests on kept connections were).
    void evict(std::uint64_t id) {
        auto found = connections.find(id);
        if (found == connections.end()) return;
        const Phase phase = found->second->phase;
        if (phase == Phase::head || phase == Phase::handshake || phase == Phase::idle) {
            step(id);
            found = connections.find(id);
            if (found == connections.end() || found->second->phase == Phase::queued) return;
        }
        close(id);
    }

    void admit_one(UniqueFd fd, const std::string& address) {
        std::vector<ConnectionView> views;
        views.reserve(connections.size());
        for (const auto& [id, c] : connections) views.push_back(c->view());
        const Admission admission = admit(views, address, max_open, per_address);
        for (const auto id : admission.close) evict(id);
        if (admission.refuse_new) {  // every slot is answering: a best-effort 503, never waited on
            const std::string bytes = refusal_bytes(503, "too many connections; try again\n");
            [[maybe_unused]] const auto n = ::send(fd.get(), bytes.data(), bytes.size(), MSG_NOSIGNAL);
            return;
        }
        const MonoTime now = mono_now();
        auto c = std::make_unique<ServerConnection>(next_id++, std::move(fd), address, now);
        if (options.tls) c->tls_context = options.tls();
        enter(*c, options.tls ? Phase::handshake : Phase::head, now, limits().head_timeout);
        watch(*c, EPOLLIN);
        connections.emplace(c->id(), std::move(c));
    }

    void accept_all() {
        for (int i = 0; i < kAcceptsPerWakeup; ++i) {
            sockaddr_storage address{};
            socklen_t length = sizeof address;
            const int fd =
                ::accept4(listener.get(), reinterpret_cast<sockaddr*>(&address), &length, SOCK_CLOEXEC | SOCK_NONBLOCK);
            if (fd >= 0) {
                admit_one(UniqueFd(fd), address_text(address));
                continue;
            }
            if (errno == EINTR || errno == ECONNABORTED) continue;
            if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
                // Out of descriptors (another part of the process, or the system): the
                // pending client waits in the backlog rather than spin the loop.
                accept_paused_until = mono_now() + kAcceptPause;
                set_listening(false);
            }
            return;
        }
    }

    void set_listening(bool on) {
        epoll_event event{};
        event.events = on ? static_cast<std::uint32_t>(EPOLLIN) : 0u;
        event.data.u64 = kListener;
        ::epoll_ctl(epoll.get(), EPOLL_CTL_MOD, listener.get(), &event);
    }

    // Closes whatever is past its deadline; the milliseconds to the next one (-1: none).
    int expire(MonoTime now) {
        std::vector<std::uint64_t> late;
        std::optional<MonoTime> next = accept_paused_until;
        for (const auto& [id, c] : connections) {
            if (c->phase == Phase::queued) continue;
            if (c->deadline <= now) late.push_back(id);
            else if (!next || c->deadline < *next) next = c->deadline;
        }
        for (const auto id : late) close(id);
        if (!next) return -1;
        return static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(*next - now).count());
    }

    void add(int fd, std::uint64_t id) {
        epoll_event event{};
        event.events = EPOLLIN;
        event.data.u64 = id;
        ::epoll_ctl(epoll.get(), EPOLL_CTL_ADD, fd, &event);
    }

    void loop(int stop_fd) {
        add(listener.get(), kListener);
        add(stop_fd, kStop);
        add(pool->ready_fd(), kAnswers);
        epoll_event events[128];
        for (;;) {
            const MonoTime now = mono_now();
            if (accept_paused_until && *accept_paused_until <= now) {
                accept_paused_until.reset();
                set_listening(true);
            }
            const int timeout = expire(now);
            const int n = ::epoll_wait(epoll.get(), events, 128, timeout < 0 ? -1 : std::max(timeout, 1));
            if (n < 0 && errno != EINTR) return;
            for (int i = 0; i < n; ++i) {
                const std::uint64_t id = events[i].data.u64;
                if (id == kStop) return;
                if (id == kListener) accept_all();
                else if (id == kAnswers) on_answers();
                else step(id);
            }
        }
    }
};

HttpServer::HttpServer(std::unique_ptr<State> state) : state_(std::move(state)) {}

HttpServer::~HttpServer() = default;

Result<std::unique_ptr<HttpServer>> HttpServer::listen(const std::string& host, int port, ServerOptions options) {
    auto bound = host.empty() ? bind_one("::", port) : bind_one(host, port);
    if (!bound.ok() && host.empty()) bound = bind_one("0.0.0.0", port);  // a host without IPv6
    if (!bound.ok()) return Error{bound.error()};
    auto state = std::make_unique<State>();
    state->listener = std::move(bound.value());
    const ServerLimits& limits = options.limits;
    state->max_open = resolve_max_open(limits.max_open, soft_fd_limit(), open_descriptors(), limits.reserved_fds);
    state->per_address = resolve_per_address(limits.per_address_pending, state->max_open);
    state->options = std::move(options);
    return std::unique_ptr<HttpServer>(new HttpServer(std::move(state)));
}

int HttpServer::port() const {
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (::getsockname(state_->listener.get(), reinterpret_cast<sockaddr*>(&address), &length) != 0) return 0;
    if (address.ss_family == AF_INET6) return ntohs(reinterpret_cast<sockaddr_in6*>(&address)->sin6_port);
    return ntohs(reinterpret_cast<sockaddr_in*>(&address)->sin_port);
}

int HttpServer::max_open() const { return state_->max_open; }

void HttpServer::run(int stop_fd) {
    State& st = *state_;
    st.epoll = UniqueFd(::epoll_create1(EPOLL_CLOEXEC));
    st.responder = std::make_unique<Responder>(st.options.handler);
    st.pool = std::make_unique<AnswerPool>([&st](const Job& job) { return st.responder->respond(job); },
                                           st.limits().workers, st.limits().slow_workers);
    st.loop(stop_fd);
    st.connections.clear();
    st.pool.reset();  // joins the workers: no handler runs after this returns
    st.answering = 0;
    OPENSSL_thread_stop();
}

}  // namespace musatop::net
