#include "musatop/cluster/plain_fetcher.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>

#include "musatop/net/api.hpp"
#include "musatop/net/base64.hpp"
#include "musatop/net/http_request.hpp"
#include "musatop/net/http_response.hpp"
#include "musatop/output/json_input.hpp"
#include "musatop/util/unique_fd.hpp"

namespace musatop::cluster {
namespace {

constexpr std::uint64_t kCancelTag = ~std::uint64_t{0};
constexpr auto kLookupPoll = std::chrono::milliseconds(5);  // getaddrinfo_a has no fd to wait on

struct Address {
    sockaddr_storage storage{};
    socklen_t length = 0;
};

// A name being resolved by glibc's resolver threads: it must stay where it is
// until they are done with it.
struct Lookup {
    std::string name;
    addrinfo hints{};
    gaicb request{};
};

std::vector<Address> numeric_address(const NodeAddress& node) {
    Address a;
    auto* v4 = reinterpret_cast<sockaddr_in*>(&a.storage);
    auto* v6 = reinterpret_cast<sockaddr_in6*>(&a.storage);
    if (::inet_pton(AF_INET, node.host.c_str(), &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons(static_cast<std::uint16_t>(node.port));
        a.length = sizeof(sockaddr_in);
    } else if (::inet_pton(AF_INET6, node.host.c_str(), &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(static_cast<std::uint16_t>(node.port));
        a.length = sizeof(sockaddr_in6);
    } else {
        return {};
    }
    return {a};
}

enum class Phase { idle, resolving, connecting, sending, reading };

struct Node {
    NodeAddress address;
    std::string request;
    std::vector<Address> addresses;  // resolved; tried in turn
    std::size_t next_address = 0;
    std::unique_ptr<Lookup> lookup;
    UniqueFd fd;
    bool reused = false;   // the connection has answered before
    bool writing = false;  // watched for output (connecting, or a request that did not fit)
    bool retried = false;  // this request was sent again on a new connection
    Phase phase = Phase::idle;
    MonoTime started{}, deadline{};
    std::size_t sent = 0;
    std::string last_error;  // of the addresses tried
    net::HttpResponseReader reader{0};
};

}  // namespace

struct PlainFetcher::State {
    std::vector<Node> nodes;
    FetchSettings settings;
    UniqueFd epoll{::epoll_create1(EPOLL_CLOEXEC)};
    std::size_t busy = 0;
    std::vector<char> buffer = std::vector<char>(64 << 10);
    const Done* done = nullptr;

    void watch(std::size_t index, std::uint32_t events, int op) {
        nodes[index].writing = events & EPOLLOUT;
        epoll_event event{};
        event.events = events;
        event.data.u64 = index;
        ::epoll_ctl(epoll.get(), op, nodes[index].fd.get(), &event);
    }

    void finish(std::size_t index, FetchOutcome& outcome) {
        Node& n = nodes[index];
        outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - n.started).count();
        n.phase = Phase::idle;
        --busy;
        (*done)(index, outcome);
        n.reader.reset(std::move(outcome.body));  // the buffer takes the node's next answer
    }

    void fail(std::size_t index, std::string why) {
        Node& n = nodes[index];
        n.fd.reset();
        n.reused = false;
        FetchOutcome outcome;
        outcome.failure = std::move(why);
        finish(index, outcome);
    }

    void start(std::size_t index, MonoTime now) {
        Node& n = nodes[index];
        n.phase = Phase::sending;
        n.started = now;
        n.deadline = now + to_duration(settings.timeout);
        n.sent = 0;
        n.retried = false;
        n.reader.reset(std::move(n.reader.body()));
        ++busy;
        if (n.fd.valid()) return send(index);
        connect_first(index);
    }

    // A new connection: from the first address (resolved first when needed).
    void connect_first(std::size_t index) {
        Node& n = nodes[index];
        n.reused = false;
        n.fd.reset();
        n.sent = 0;
        if (n.addresses.empty()) n.addresses = numeric_address(n.address);
        if (n.addresses.empty()) return resolve(index);
        n.next_address = 0;
        n.last_error.clear();
        connect_next(index);
    }

    void resolve(std::size_t index) {
        Node& n = nodes[index];
        n.phase = Phase::resolving;
        if (n.lookup) return;  // still going from an earlier round
        n.lookup = std::make_unique<Lookup>();
        Lookup& l = *n.lookup;
        l.name = n.address.host;
        l.hints.ai_family = AF_UNSPEC;
        l.hints.ai_socktype = SOCK_STREAM;
        l.request.ar_name = l.name.c_str();
        l.request.ar_request = &l.hints;
        gaicb* list[] = {&l.request};
        if (::getaddrinfo_a(GAI_NOWAIT, list, 1, nullptr) != 0) {
            n.lookup.reset();
            fail(index, "cannot resolve the host name");
        }
    }

    void check_lookup(std::size_t index) {
        Node& n = nodes[index];
        const int status = ::gai_error(&n.lookup->request);
        if (status == EAI_INPROGRESS) return;
        if (status == 0) {
            for (const addrinfo* a = n.lookup->request.ar_result; a; a = a->ai_next) {
                if (a->ai_addrlen > sizeof(sockaddr_storage)) continue;
                Address address;
                std::memcpy(&address.storage, a->ai_addr, a->ai_addrlen);
                address.length = a->ai_addrlen;
                const auto port = htons(static_cast<std::uint16_t>(n.address.port));
                if (a->ai_family == AF_INET) reinterpret_cast<sockaddr_in*>(&address.storage)->sin_port = port;
                if (a->ai_family == AF_INET6) reinterpret_cast<sockaddr_in6*>(&address.storage)->sin6_port = port;
                n.addresses.push_back(address);
            }
            ::freeaddrinfo(n.lookup->request.ar_result);
        }
        n.lookup.reset();
        if (n.phase != Phase::resolving) return;  // it timed out meanwhile
        if (n.addresses.empty()) return fail(index, "cannot resolve the host name");
        connect_first(index);
    }

    void connect_next(std::size_t index) {
        Node& n = nodes[index];
        while (n.next_address < n.addresses.size()) {
            const Address& a = n.addresses[n.next_address++];
            n.fd = UniqueFd(::socket(a.storage.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
            if (!n.fd.valid()) {  // no IPv6 here, or out of fds: the next address may do
                n.last_error = os_error_text(errno);
                continue;
            }
            const int one = 1;
            ::setsockopt(n.fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            ::setsockopt(n.fd.get(), SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
            if (::connect(n.fd.get(), reinterpret_cast<const sockaddr*>(&a.storage), a.length) == 0 ||
                errno == EINPROGRESS) {
                n.phase = Phase::connecting;
                return watch(index, EPOLLOUT, EPOLL_CTL_ADD);
            }
            n.last_error = os_error_text(errno);
            n.fd.reset();
        }
        n.addresses.clear();  // resolved again next time: the name may point elsewhere by then
        fail(index, n.last_error.empty() ? std::string("no address to connect to") : n.last_error);
    }

    void connected(std::size_t index) {
        Node& n = nodes[index];
        int error = 0;
        socklen_t length = sizeof error;
        ::getsockopt(n.fd.get(), SOL_SOCKET, SO_ERROR, &error, &length);
        if (error != 0) {
            n.last_error = os_error_text(error);
            n.fd.reset();
            return connect_next(index);
        }
        n.phase = Phase::sending;
        send(index);
    }

    // The node closed a kept connection before this request got an answer: the
    // request goes again, once, on a new connection (servers close idle ones).
    bool retry(std::size_t index) {
        Node& n = nodes[index];
        if (!n.reused || n.retried || n.reader.started()) return false;
        n.retried = true;
        n.phase = Phase::sending;
        n.reader.reset(std::move(n.reader.body()));  // it saw the end of the old connection
        connect_first(index);
        return true;
    }

    void send(std::size_t index) {
        Node& n = nodes[index];
        while (n.sent < n.request.size()) {
            const ssize_t wrote = ::send(n.fd.get(), n.request.data() + n.sent, n.request.size() - n.sent, MSG_NOSIGNAL);
            if (wrote > 0) {
                n.sent += static_cast<std::size_t>(wrote);
                continue;
            }
            if (errno == EINTR) continue;
            if (errno == EAGAIN) return watch(index, EPOLLOUT, EPOLL_CTL_MOD);
            const int error = errno;
            if (!retry(index)) fail(index, os_error_text(error));
            return;
        }
        n.phase = Phase::reading;
        // A kept connection is watched for input already: no epoll_ctl per request.
        if (n.writing) watch(index, EPOLLIN, EPOLL_CTL_MOD);
    }

    void receive(std::size_t index) {
        Node& n = nodes[index];
        for (;;) {
            const ssize_t got = ::recv(n.fd.get(), buffer.data(), buffer.size(), 0);
            if (got < 0 && errno == EINTR) continue;
            if (got < 0 && errno == EAGAIN) return;
            const int error = got < 0 ? errno : 0;
            const auto state = got > 0 ? n.reader.feed({buffer.data(), static_cast<std::size_t>(got)})
                                       : n.reader.end_of_input();
            if (state == net::HttpResponseReader::State::reading) continue;
            if (state == net::HttpResponseReader::State::failed) {
                if (retry(index)) return;
                return fail(index, error ? os_error_text(error) : n.reader.error());
            }
            FetchOutcome outcome;
            outcome.answered = true;
            outcome.http_status = n.reader.status();
            outcome.body = std::move(n.reader.body());
            n.reused = n.reader.keep_alive();
            if (!n.reused) n.fd.reset();
            return finish(index, outcome);
        }
    }

    // An idle kept connection that turns readable was closed (or spoke out of turn).
    void drop_idle(std::size_t index) {
        nodes[index].fd.reset();
        nodes[index].reused = false;
    }

    void on_event(std::size_t index, std::uint32_t events) {
        Node& n = nodes[index];
        switch (n.phase) {
        case Phase::idle: return drop_idle(index);
        case Phase::connecting: return connected(index);
        case Phase::sending:
            if (events & (EPOLLERR | EPOLLHUP)) {
                if (!retry(index)) fail(index, "the connection failed");
                return;
            }
            return send(index);
        case Phase::reading: return receive(index);
        case Phase::resolving: return;
        }
    }
};

PlainFetcher::PlainFetcher(std::vector<NodeAddress> nodes, FetchSettings settings) : state_(new State) {
    state_->settings = std::move(settings);
    net::Request request;
    request.target = std::string(net::kSnapshotPath);
    request.headers = {{"User-Agent", "musatop-cluster"}, {"Accept", std::string(net::kJsonType)}};
    if (state_->settings.user)
        request.headers.emplace_back("Authorization", net::basic_authorization(*state_->settings.user,
                                                                               state_->settings.password.value_or("")));
    state_->nodes.resize(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        Node& n = state_->nodes[i];
        n.address = nodes[i];
        n.request = net::write_request(request, net::Endpoint{false, nodes[i].host, nodes[i].port});
        n.reader = net::HttpResponseReader(state_->settings.max_body_bytes, kJsonPaddingBytes);
    }
}

PlainFetcher::~PlainFetcher() {
    for (auto& n : state_->nodes) {
        if (!n.lookup) continue;
        // A name glibc is still resolving cannot be freed under its threads: it is
        // left to them (a few bytes, only when the view quits mid-lookup).
        if (::gai_cancel(&n.lookup->request) == EAI_NOTCANCELED) (void)n.lookup.release();
        else if (::gai_error(&n.lookup->request) == 0) ::freeaddrinfo(n.lookup->request.ar_result);
    }
}

std::size_t PlainFetcher::in_flight() const { return state_->busy; }

void PlainFetcher::round(MonoTime until, int cancel_fd, const Done& done) {
    State& st = *state_;
    st.done = &done;
    const MonoTime begun = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < st.nodes.size(); ++i)
        if (st.nodes[i].phase == Phase::idle) st.start(i, begun);
    if (cancel_fd >= 0) {
        epoll_event event{};
        event.events = EPOLLIN;
        event.data.u64 = kCancelTag;
        ::epoll_ctl(st.epoll.get(), EPOLL_CTL_ADD, cancel_fd, &event);
    }
    epoll_event events[64];
    while (st.busy > 0) {
        MonoTime now = std::chrono::steady_clock::now();
        MonoTime wake = until;
        bool resolving = false;
        for (std::size_t i = 0; i < st.nodes.size(); ++i) {
            Node& n = st.nodes[i];
            if (n.phase == Phase::idle) continue;
            if (n.lookup) st.check_lookup(i);
            if (n.phase == Phase::idle) continue;
            if (now >= n.deadline) {
                st.fail(i, timeout_text(std::chrono::duration<double>(now - n.started).count()));
                continue;
            }
            resolving = resolving || n.phase == Phase::resolving;
            wake = std::min(wake, n.deadline);
        }
        if (st.busy == 0 || now >= until) break;
        if (resolving) wake = std::min(wake, now + kLookupPoll);
        const auto wait_ms = std::chrono::ceil<std::chrono::milliseconds>(wake - now).count();
        const int ready = ::epoll_wait(st.epoll.get(), events, 64, static_cast<int>(std::clamp<long long>(wait_ms, 0, 1000)));
        if (ready < 0 && errno != EINTR) break;  // no epoll set (out of fds): the next round retries
        bool cancelled = false;
        for (int i = 0; i < ready; ++i) {
            if (events[i].data.u64 == kCancelTag) cancelled = true;
            else st.on_event(static_cast<std::size_t>(events[i].data.u64), events[i].events);
        }
        if (cancelled) break;
    }
    if (cancel_fd >= 0) ::epoll_ctl(st.epoll.get(), EPOLL_CTL_DEL, cancel_fd, nullptr);
    st.done = nullptr;
}

std::unique_ptr<NodeFetcher> make_node_fetcher(std::vector<NodeAddress> nodes, FetchSettings settings) {
    for (const auto& node : nodes)
        if (node.https) return std::make_unique<DirectFetcher>(std::move(nodes), std::move(settings));
    return std::make_unique<PlainFetcher>(std::move(nodes), std::move(settings));
}

}  // namespace musatop::cluster
