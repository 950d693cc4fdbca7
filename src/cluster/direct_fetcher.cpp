#include "musatop/cluster/direct_fetcher.hpp"

#include <curl/curl.h>
#include <sys/epoll.h>

#include <cerrno>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "musatop/util/unique_fd.hpp"

namespace musatop::cluster {

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

// libcurl's process-wide set-up, done once before the first handle.
void global_init_once() {
    static const bool done = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
    (void)done;
}

struct Transfer {
    CURL* easy = nullptr;
    std::string body;
    std::size_t last_size = 0;  // of the previous answer; the next one is reserved to fit it
    std::size_t limit = 0;
    bool too_large = false;
    bool busy = false;
    char error[CURL_ERROR_SIZE] = {};
};

std::size_t on_data(char* data, std::size_t size, std::size_t count, void* user) {
    auto* transfer = static_cast<Transfer*>(user);
    const std::size_t bytes = size * count;
    if (transfer->body.size() + bytes > transfer->limit) {
        transfer->too_large = true;
        return 0;  // aborts the transfer
    }
    transfer->body.append(data, bytes);
    return bytes;
}

// Short and the same for every node: "connection refused", "timed out after 3.0 s".
std::string failure_text(const Transfer& t, CURLcode code) {
    long os_errno = 0;
    curl_easy_getinfo(t.easy, CURLINFO_OS_ERRNO, &os_errno);
    if (code == CURLE_COULDNT_CONNECT && os_errno != 0) return os_error_text(static_cast<int>(os_errno));
    if (code == CURLE_OPERATION_TIMEDOUT) {
        curl_off_t microseconds = 0;
        curl_easy_getinfo(t.easy, CURLINFO_TOTAL_TIME_T, &microseconds);
        return timeout_text(static_cast<double>(microseconds) / 1e6);
    }
    if (code == CURLE_COULDNT_RESOLVE_HOST) return "cannot resolve the host name";
    return t.error[0] ? t.error : curl_easy_strerror(code);
}

FetchOutcome outcome_of(Transfer& t, CURLcode code) {
    FetchOutcome out;
    double seconds = 0;
    curl_easy_getinfo(t.easy, CURLINFO_TOTAL_TIME, &seconds);
    out.seconds = seconds;
    if (code == CURLE_OK) {
        out.answered = true;
        curl_easy_getinfo(t.easy, CURLINFO_RESPONSE_CODE, &out.http_status);
        t.last_size = t.body.size();
        out.body = std::move(t.body);
    } else if (t.too_large) {
        out.failure = "the answer exceeded " + std::to_string(t.limit >> 20) + " MiB";
    } else {
        out.failure = failure_text(t, code);
    }
    t.body.clear();
    return out;
}

}  // namespace

// The multi handle driven by events (curl_multi_socket_action): libcurl says which
// sockets to watch and when its next timeout is; one epoll set holds them. Each
// wake-up touches only the sockets that are ready. (curl_multi_perform walked every
// request and polled each socket on every wake-up: ~3 polls per answer.)
struct DirectFetcher::State {
    CURLM* multi = nullptr;
    std::vector<Transfer> transfers;
    std::size_t busy = 0;
    UniqueFd epoll{::epoll_create1(EPOLL_CLOEXEC)};
    std::optional<MonoTime> timer;  // libcurl's next timeout, when it has one

    void watch(int fd, std::uint32_t events) const {
        epoll_event event{};
        event.events = events;
        event.data.fd = fd;
        if (::epoll_ctl(epoll.get(), EPOLL_CTL_ADD, fd, &event) != 0 && errno == EEXIST)
            ::epoll_ctl(epoll.get(), EPOLL_CTL_MOD, fd, &event);
    }
};

namespace {

int on_socket(CURL*, curl_socket_t fd, int what, void* user, void*) {
    auto* state = static_cast<DirectFetcher::State*>(user);
    if (what == CURL_POLL_REMOVE) {
        ::epoll_ctl(state->epoll.get(), EPOLL_CTL_DEL, fd, nullptr);
        return 0;
    }
    state->watch(fd, ((what & CURL_POLL_IN) ? EPOLLIN : 0u) | ((what & CURL_POLL_OUT) ? EPOLLOUT : 0u));
    return 0;
}

int on_timer(CURLM*, long timeout_ms, void* user) {
    auto* state = static_cast<DirectFetcher::State*>(user);
    if (timeout_ms < 0) state->timer.reset();
    else state->timer = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    return 0;
}

}  // namespace

DirectFetcher::DirectFetcher(std::vector<NodeAddress> nodes, FetchSettings settings) : state_(new State) {
    global_init_once();
    state_->multi = curl_multi_init();
    // Keep every node's connection between rounds. By default the cache holds four
    // per handle *added*, and handles are removed as they finish: the last answers
    // of a round found it shrunk and closed their connections (~9 reconnects a
    // second over 256 nodes).
    curl_multi_setopt(state_->multi, CURLMOPT_MAXCONNECTS, static_cast<long>(nodes.size() + 16));
    curl_multi_setopt(state_->multi, CURLMOPT_SOCKETFUNCTION, on_socket);
    curl_multi_setopt(state_->multi, CURLMOPT_SOCKETDATA, state_.get());
    curl_multi_setopt(state_->multi, CURLMOPT_TIMERFUNCTION, on_timer);
    curl_multi_setopt(state_->multi, CURLMOPT_TIMERDATA, state_.get());
    state_->transfers.resize(nodes.size());
    const auto timeout_ms = static_cast<long>(std::max(1.0, settings.timeout.count() * 1000));
    const long receive_buffer =
        std::clamp<long>(static_cast<long>((4L << 20) / std::max<std::size_t>(1, nodes.size())), 4096L, 16384L);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        Transfer& t = state_->transfers[i];
        t.limit = settings.max_body_bytes;
        t.easy = curl_easy_init();
        curl_easy_setopt(t.easy, CURLOPT_URL, nodes[i].url("/api/v1/snapshot").c_str());
        curl_easy_setopt(t.easy, CURLOPT_PROTOCOLS_STR, "http,https");
        curl_easy_setopt(t.easy, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(t.easy, CURLOPT_TIMEOUT_MS, timeout_ms);
        curl_easy_setopt(t.easy, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
        curl_easy_setopt(t.easy, CURLOPT_TCP_KEEPALIVE, 1L);
        // Nodes are reached directly, as the plain http:// client does: a login
        // node's http_proxy is for the outside world, not for its cluster.
        curl_easy_setopt(t.easy, CURLOPT_NOPROXY, "*");
        // No Accept-Encoding: gzip makes a 14 KB snapshot 1.8 KB but costs the node
        // ~200 µs to deflate and this view ~17 µs to inflate per answer, more than
        // parsing it (docs/PERFORMANCE.md); 14 KB a node a second is nothing on a
        // cluster network.
        curl_easy_setopt(t.easy, CURLOPT_WRITEFUNCTION, on_data);
        curl_easy_setopt(t.easy, CURLOPT_WRITEDATA, &t);
        curl_easy_setopt(t.easy, CURLOPT_ERRORBUFFER, t.error);
        curl_easy_setopt(t.easy, CURLOPT_USERAGENT, "musatop-cluster");
        curl_easy_setopt(t.easy, CURLOPT_PRIVATE, reinterpret_cast<void*>(i));
        // One receive call per answer where memory allows: the buffers of all nodes
        // together take at most 4 MiB (16 KiB each up to 256 nodes, 4 KiB from 1024).
        curl_easy_setopt(t.easy, CURLOPT_BUFFERSIZE, receive_buffer);
        if (settings.user) {
            curl_easy_setopt(t.easy, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
            curl_easy_setopt(t.easy, CURLOPT_USERNAME, settings.user->c_str());
            curl_easy_setopt(t.easy, CURLOPT_PASSWORD, settings.password.value_or("").c_str());
        }
        if (settings.ca_file) curl_easy_setopt(t.easy, CURLOPT_CAINFO, settings.ca_file->c_str());
    }
}

DirectFetcher::~DirectFetcher() {
    for (auto& t : state_->transfers) {
        if (t.busy) curl_multi_remove_handle(state_->multi, t.easy);
        curl_easy_cleanup(t.easy);
    }
    curl_multi_cleanup(state_->multi);
}

std::size_t DirectFetcher::in_flight() const { return state_->busy; }

void DirectFetcher::round(MonoTime until, int cancel_fd, const Done& done) {
    State& st = *state_;
    for (auto& t : st.transfers) {
        if (t.busy) continue;
        t.error[0] = '\0';
        t.too_large = false;
        t.body.clear();
        // Room for the last size and then some, and for simdjson's padding, so the
        // answer is read where it lies.
        t.body.reserve(std::min(t.last_size + t.last_size / 8, t.limit) + kJsonPaddingBytes);
        curl_multi_add_handle(st.multi, t.easy);
        t.busy = true;
        ++st.busy;
    }
    const auto finish = [&] {
        int queued = 0;
        while (CURLMsg* message = curl_multi_info_read(st.multi, &queued)) {
            if (message->msg != CURLMSG_DONE) continue;
            void* index = nullptr;
            curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, &index);
            Transfer& t = st.transfers.at(reinterpret_cast<std::size_t>(index));
            const CURLcode code = message->data.result;
            curl_multi_remove_handle(st.multi, t.easy);
            t.busy = false;
            --st.busy;
            FetchOutcome outcome = outcome_of(t, code);
            done(reinterpret_cast<std::size_t>(index), outcome);
            t.body = std::move(outcome.body);  // its buffer takes the node's next answer
            t.body.clear();
        }
    };
    int running = 0;
    curl_multi_socket_action(st.multi, CURL_SOCKET_TIMEOUT, 0, &running);  // starts the new requests
    finish();
    if (cancel_fd >= 0) st.watch(cancel_fd, EPOLLIN);
    for (;;) {
        const MonoTime now = std::chrono::steady_clock::now();
        if (st.busy == 0 || now >= until) break;
        const MonoTime wake = st.timer ? std::min(until, *st.timer) : until;
        const auto wait_ms = std::chrono::ceil<std::chrono::milliseconds>(wake - now).count();
        epoll_event events[64];
        const int ready = ::epoll_wait(st.epoll.get(), events, 64, static_cast<int>(std::clamp<long long>(wait_ms, 0, 1000)));
        if (ready < 0 && errno != EINTR) break;  // no epoll set (out of fds): the next round retries
        bool cancelled = false;
        for (int i = 0; i < ready; ++i) {
            const int fd = events[i].data.fd;
            if (fd == cancel_fd) {
                cancelled = true;
                continue;
            }
            const std::uint32_t e = events[i].events;
            const int flags = ((e & EPOLLIN) ? CURL_CSELECT_IN : 0) | ((e & EPOLLOUT) ? CURL_CSELECT_OUT : 0) |
                              ((e & (EPOLLERR | EPOLLHUP)) ? CURL_CSELECT_ERR : 0);
            curl_multi_socket_action(st.multi, fd, flags, &running);
        }
        if (st.timer && std::chrono::steady_clock::now() >= *st.timer) {
            st.timer.reset();  // a one-shot timer: libcurl sets the next one while it runs
            curl_multi_socket_action(st.multi, CURL_SOCKET_TIMEOUT, 0, &running);
        }
        finish();
        if (cancelled) break;
    }
    if (cancel_fd >= 0) ::epoll_ctl(st.epoll.get(), EPOLL_CTL_DEL, cancel_fd, nullptr);
}

namespace {

std::vector<std::string> displays(const std::vector<NodeAddress>& nodes) {
    std::vector<std::string> out;
    for (const auto& node : nodes) out.push_back(node.display());
    return out;
}

}  // namespace

DirectSource::DirectSource(const std::vector<NodeAddress>& nodes, FetchSettings settings, Seconds stale_after)
    : fetcher_(make_node_fetcher(nodes, std::move(settings))), tracker_(displays(nodes), stale_after) {}

ClusterSnapshot DirectSource::round(MonoTime until, int cancel_fd) {
    fetcher_->round(until, cancel_fd, [this](std::size_t index, const FetchOutcome& outcome) {
        tracker_.record(index, outcome, std::chrono::system_clock::now());
    });
    return tracker_.view(std::chrono::system_clock::now(), "direct");
}

}  // namespace musatop::cluster
