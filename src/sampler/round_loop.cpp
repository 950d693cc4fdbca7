#include "musatop/sampler/round_loop.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cstdint>

namespace musatop {

RoundLoop::RoundLoop(std::chrono::steady_clock::duration interval, Round round)
    : interval_(interval), round_(std::move(round)), refresh_fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {}

RoundLoop::~RoundLoop() {
    stop();
    join();
}

void RoundLoop::start() {
    if (thread_.joinable() || stopped()) return;
    thread_ = std::thread([this] { run(); });
}

void RoundLoop::stop() const { canceller_.cancel(); }

void RoundLoop::join() {
    if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

void RoundLoop::request_refresh() const {
    const std::uint64_t one = 1;
    [[maybe_unused]] const ssize_t written = ::write(refresh_fd_.get(), &one, sizeof one);
}

// Sleeps until the next start, a refresh or a stop; a refresh asked for during
// the round just run starts the next one at once.
bool RoundLoop::wait_until(MonoTime next_start) const {
    for (;;) {
        if (stopped()) return false;
        pollfd fds[2] = {{canceller_.fd(), POLLIN, 0}, {refresh_fd_.get(), POLLIN, 0}};
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(next_start - mono_now());
        const int ready = ::poll(fds, 2, static_cast<int>(std::max<std::int64_t>(left.count(), 0)));
        if (stopped()) return false;
        if (ready > 0 && (fds[1].revents & POLLIN)) return true;
        if (ready == 0 && mono_now() >= next_start) return true;
    }
}

void RoundLoop::run(std::optional<std::chrono::steady_clock::duration> duration) {
    const MonoTime begun = mono_now();
    for (MonoTime started = begun; !stopped(); started = mono_now()) {
        std::uint64_t drained = 0;  // refreshes asked for before this round are answered by it
        [[maybe_unused]] const ssize_t n = ::read(refresh_fd_.get(), &drained, sizeof drained);
        if (!round_(started, canceller_.token())) return;
        const MonoTime next_start = started + interval_;
        if (duration && next_start - begun > *duration) return;
        if (!wait_until(next_start)) return;
    }
}

}  // namespace musatop
