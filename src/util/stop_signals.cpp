#include "musatop/util/stop_signals.hpp"

#include <csignal>

namespace musatop {
namespace {

// Process-wide by nature: a signal handler can reach nothing else.
volatile std::sig_atomic_t received_signal = 0;
const Canceller* volatile poked = nullptr;

void on_stop(int signal) {
    received_signal = signal;
    if (const Canceller* canceller = poked) canceller->cancel();  // write(2): async-signal-safe
}

}  // namespace

sigset_t stop_signal_set() {
    sigset_t set;
    sigemptyset(&set);
    for (int s : kStopSignals) sigaddset(&set, s);
    return set;
}

StopSignals::StopSignals(const Canceller* poke) {
    received_signal = 0;
    poked = poke;
    struct sigaction action {};
    action.sa_handler = on_stop;
    sigemptyset(&action.sa_mask);
    for (std::size_t i = 0; i < kStopSignals.size(); ++i) ::sigaction(kStopSignals[i], &action, &previous_[i]);
}

StopSignals::~StopSignals() {
    for (std::size_t i = 0; i < kStopSignals.size(); ++i) ::sigaction(kStopSignals[i], &previous_[i], nullptr);
    poked = nullptr;
}

int StopSignals::received() const { return received_signal; }

}  // namespace musatop
