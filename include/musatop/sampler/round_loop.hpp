// The one way rounds are run: start to start at an interval (a slow round stretches
// it, never overlaps the next), a round cancelled at once when the loop stops, and
// a refresh that starts the next round now. Under the sampler, the cluster sampler
// and `record`. Stopping and refreshing are eventfd writes, so a signal handler may
// do either (record's StopSignals pokes the loop's canceller).
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <thread>

#include "musatop/util/cancel.hpp"
#include "musatop/util/clock.hpp"
#include "musatop/util/unique_fd.hpp"

namespace musatop {

class RoundLoop {
public:
    // `round(started, cancel)` collects and publishes one round; it returns
    // promptly once `cancel` is requested (and then publishes nothing), and false
    // to end the loop (a recording that cannot go on).
    using Round = std::function<bool(MonoTime started, CancelToken cancel)>;

    RoundLoop(std::chrono::steady_clock::duration interval, Round round);
    ~RoundLoop();  // stops and joins
    RoundLoop(const RoundLoop&) = delete;
    RoundLoop& operator=(const RoundLoop&) = delete;

    void start();  // on a thread of its own; idempotent, and never after stop()
    // On the calling thread until stop(), or until the next round would start
    // later than `duration` after the first did (`record --duration`).
    void run(std::optional<std::chrono::steady_clock::duration> duration = std::nullopt);
    void stop() const;             // async-signal-safe; a round in progress is cancelled
    void join();                   // waits for start()'s thread
    void request_refresh() const;  // async-signal-safe
    bool stopped() const { return canceller_.token().requested(); }
    const Canceller& canceller() const { return canceller_; }

private:
    bool wait_until(MonoTime next_start) const;  // false when stopped

    std::chrono::steady_clock::duration interval_;
    Round round_;
    Canceller canceller_;
    UniqueFd refresh_fd_;
    std::thread thread_;
};

}  // namespace musatop
