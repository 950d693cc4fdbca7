#include "musatop/collection/driver/bounded_driver_reader.hpp"

#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

#include "musatop/util/clock.hpp"
#include "musatop/util/unique_fd.hpp"

namespace musatop::driver {

struct BoundedDriverReader::Shared {
    explicit Shared(std::string root) : reader(std::move(root)), done_fd(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {}
    DriverReader reader;
    UniqueFd done_fd;  // readable when a result waits
    std::mutex mutex;
    std::condition_variable wake;
    std::optional<bool> request;       // process_util of the read asked for
    std::optional<DriverTree> result;  // the last read's, until taken
    bool busy = false;                 // a read is running (maybe blocked in the driver)
    bool quit = false;
    std::optional<MonoTime> blocked_since;
};

namespace {

void serve(const std::shared_ptr<BoundedDriverReader::Shared>& s) {
    for (;;) {
        bool process_util = false;
        {
            std::unique_lock lock(s->mutex);
            s->wake.wait(lock, [&] { return s->quit || s->request; });
            if (s->quit) return;
            process_util = *s->request;
            s->request.reset();
        }
        DriverTree tree = s->reader.read(process_util);
        {
            std::lock_guard lock(s->mutex);
            s->result = std::move(tree);
            s->busy = false;
            s->blocked_since.reset();
        }
        const std::uint64_t one = 1;
        [[maybe_unused]] const auto n = ::write(s->done_fd.get(), &one, sizeof one);
    }
}

std::string seconds_text(std::chrono::steady_clock::duration d) {
    const auto tenths = std::chrono::duration_cast<std::chrono::milliseconds>(d).count() / 100;
    return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " s";
}

DriverTree unknown(std::string why) {
    DriverTree tree;
    tree.absent = std::move(why);
    tree.blocked = true;
    return tree;
}

}  // namespace

BoundedDriverReader::BoundedDriverReader(std::string root) : shared_(std::make_shared<Shared>(std::move(root))) {
    // The thread takes no signal: each mode handles its own on the threads it
    // chose (the agent's sigwait, the screen's handlers); one left open here would
    // receive the agent's SIGUSR1 and end the process.
    sigset_t all, before;
    ::sigfillset(&all);
    ::pthread_sigmask(SIG_SETMASK, &all, &before);
    std::thread([s = shared_] { serve(s); }).detach();
    ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
}

BoundedDriverReader::~BoundedDriverReader() {
    {
        std::lock_guard lock(shared_->mutex);
        shared_->quit = true;
    }
    shared_->wake.notify_all();
}

DriverTree BoundedDriverReader::read(bool process_util, std::chrono::milliseconds limit, int cancel_fd) {
    Shared& s = *shared_;
    const MonoTime now = mono_now();
    {
        std::lock_guard lock(s.mutex);
        if (s.busy)
            return unknown("a read of the driver's files has been blocked for " +
                           seconds_text(now - s.blocked_since.value_or(now)) +
                           " (the driver does not answer); they are unknown until it returns");
        s.busy = true;
        s.blocked_since = now;
        s.result.reset();
        std::uint64_t stale = 0;  // the signal of a late answer nobody waited for
        [[maybe_unused]] const auto n = ::read(s.done_fd.get(), &stale, sizeof stale);
        s.request = process_util;
    }
    s.wake.notify_all();
    const MonoTime deadline = now + limit;
    for (;;) {
        {
            std::lock_guard lock(s.mutex);
            if (s.result) {
                std::uint64_t count = 0;
                [[maybe_unused]] const auto n = ::read(s.done_fd.get(), &count, sizeof count);
                DriverTree tree = std::move(*s.result);
                s.result.reset();
                return tree;
            }
        }
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - mono_now()).count();
        if (left <= 0)
            return unknown("the driver's files did not answer within " + seconds_text(limit) +
                           " (a read is blocked in the driver); they are unknown until it returns");
        pollfd fds[2] = {{s.done_fd.get(), POLLIN, 0}, {cancel_fd, POLLIN, 0}};
        if (::poll(fds, cancel_fd >= 0 ? 2 : 1, static_cast<int>(left)) > 0 && cancel_fd >= 0 && fds[1].revents)
            return unknown("cancelled while the driver's files were read");
    }
}

}  // namespace musatop::driver
