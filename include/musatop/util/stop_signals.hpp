// The signals every mode stops on, and what it does when one comes: the same set
// for the screen, one-shot output, `record` and `serve` — Ctrl-C, SIGTERM
// (`timeout`, systemd), SIGHUP (a closed terminal) and SIGQUIT (Ctrl-\, which used
// to kill a recording without closing its file). Exit status 128 + the signal.
#pragma once

#include <signal.h>

#include <array>

#include "musatop/util/cancel.hpp"

namespace musatop {

inline constexpr std::array<int, 4> kStopSignals = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

// kStopSignals as a set, for sigwait and sigprocmask.
sigset_t stop_signal_set();

// While alive: a stop signal is remembered and pokes the canceller (a hung GMI
// call is killed at once); the handlers before are put back at the end. One at a
// time in a process (a handler reaches only globals).
class StopSignals {
public:
    explicit StopSignals(const Canceller* poke = nullptr);
    ~StopSignals();
    StopSignals(const StopSignals&) = delete;
    StopSignals& operator=(const StopSignals&) = delete;

    int received() const;  // the signal, 0 while none came

private:
    std::array<struct sigaction, kStopSignals.size()> previous_{};
};

}  // namespace musatop
