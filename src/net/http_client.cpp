#include "musatop/net/http_client.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "client_channel.hpp"

namespace musatop::net {

std::string os_error_text(int error) {
    std::string why = std::strerror(error);
    if (!why.empty()) why[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(why[0])));
    return why;
}

std::string timeout_text(double seconds) {
    char text[64];
    std::snprintf(text, sizeof text, "timed out after %.1f s", seconds);
    return text;
}

namespace {

constexpr std::uint64_t kCancelTag = ~std::uint64_t{0};
constexpr auto kLookupPoll = std::chrono::milliseconds(5);  // getaddrinfo_a has no fd to wait on
constexpr std::size_t kLookupsPolledPerPass = 64;

}  // namespace

struct HttpClient::Shared {
    std::vector<Channel> channels;
    ClientSettings settings;
    std::shared_ptr<TlsContext> tls;  // made at the first https:// channel
    std::string tls_error;            // why it could not be made
    UniqueFd epoll{::epoll_create1(EPOLL_CLOEXEC)};
    std::size_t busy = 0;
    std::vector<char> buffer = std::vector<char>(64 << 10);
};

HttpClient::HttpClient(std::vector<Route> routes, ClientSettings settings) : state_(new Shared) {
    Shared& st = *state_;
    st.settings = std::move(settings);
    const bool any_tls = std::any_of(routes.begin(), routes.end(), [](const Route& r) { return r.target.tls; });
    if (any_tls) {
        auto made = TlsContext::client(st.settings.ca_file);
        if (made.ok()) st.tls = made.value();
        else st.tls_error = made.error();
    }
    st.channels.reserve(routes.size());
    for (auto& route : routes) {
        ChannelContext context{st.epoll.get(), &st.settings, st.tls.get(), &st.tls_error, &st.busy, &st.buffer};
        st.channels.emplace_back(std::move(route), context);
    }
    for (std::size_t i = 0; i < st.channels.size(); ++i) st.channels[i].set_index(i);
}

HttpClient::~HttpClient() = default;

void HttpClient::set_request(std::size_t index, const Request& request) {
    state_->channels.at(index).set_request(request);
}

void HttpClient::abandon(std::size_t index) { state_->channels.at(index).abandon(); }

std::size_t HttpClient::in_flight() const { return state_->busy; }

void HttpClient::round(MonoTime until, CancelToken cancel, const Done& done) {
    const int cancel_fd = cancel.fd();
    Shared& st = *state_;
    const MonoTime begun = mono_now();
    for (auto& channel : st.channels)
        if (channel.idle()) channel.start(begun, done);
    if (cancel_fd >= 0) {
        epoll_event event{};
        event.events = EPOLLIN;
        event.data.u64 = kCancelTag;
        ::epoll_ctl(st.epoll.get(), EPOLL_CTL_ADD, cancel_fd, &event);
    }
    epoll_event events[64];
    while (st.busy > 0) {
        const MonoTime now = mono_now();
        MonoTime wake = until;
        bool resolving = false;
        // glibc starts lookups in the order they were asked, about 20 at a time, so
        // only the first still running can have finished: polling those keeps a pass
        // short with 100,000 names (gai_error on every one took most of the round).
        std::size_t lookups_polled = 0;
        for (auto& channel : st.channels) {
            if (channel.idle()) continue;
            if (!channel.resolving() || lookups_polled++ < kLookupsPolledPerPass) channel.check_lookup(done);
            if (channel.idle()) continue;
            if (now >= channel.deadline()) {
                channel.time_out(now, done);
                continue;
            }
            resolving = resolving || channel.resolving();
            wake = std::min(wake, channel.deadline());
        }
        if (st.busy == 0 || now >= until) break;
        if (resolving) wake = std::min(wake, now + kLookupPoll);
        const auto wait_ms = std::chrono::ceil<std::chrono::milliseconds>(wake - now).count();
        const int ready =
            ::epoll_wait(st.epoll.get(), events, 64, static_cast<int>(std::clamp<long long>(wait_ms, 0, 1000)));
        if (ready < 0 && errno != EINTR) break;  // no epoll set (out of fds): the next round retries
        bool cancelled = false;
        for (int i = 0; i < ready; ++i) {
            if (events[i].data.u64 == kCancelTag) cancelled = true;
            else st.channels[static_cast<std::size_t>(events[i].data.u64)].on_event(events[i].events, done);
        }
        if (cancelled) break;
    }
    if (cancel_fd >= 0) ::epoll_ctl(st.epoll.get(), EPOLL_CTL_DEL, cancel_fd, nullptr);
}

}  // namespace musatop::net
