#include "musatop/cli/stream.hpp"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>

#include "musatop/util/stdout_writer.hpp"
#include "musatop/util/stop_signals.hpp"

namespace musatop::cli {
namespace {

// Waits until `deadline` or a stop signal (which pokes the canceller); true when stopped.
bool wait_until(MonoTime deadline, const Canceller& canceller) {
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - mono_now());
        if (left.count() <= 0) return false;
        pollfd fd{canceller.fd(), POLLIN, 0};
        const int ready = ::poll(&fd, 1, static_cast<int>(std::min<std::int64_t>(left.count(), 60000)));
        if (ready > 0) return true;
    }
}

}  // namespace

int run_stream(const StreamSettings& settings, const std::function<StreamSample(const CancelToken&)>& sample) {
    const Canceller canceller;
    const StopSignals stop(&canceller);
    ::signal(SIGPIPE, SIG_IGN);
    const auto stopped_status = [&] { return stop.received() == SIGINT ? 0 : 128 + stop.received(); };
    MonoTime next = mono_now();
    bool last_failed = false;
    for (std::int64_t done = 0; !settings.count || done < *settings.count; ++done) {
        if (done > 0 && wait_until(next, canceller)) return stopped_status();
        next = std::max(next + to_duration(settings.interval), mono_now());
        StreamSample out = sample(canceller.token());
        if (stop.received()) return stopped_status();
        // A terminal is cleared and redrawn; a pipe gets blocks apart by a blank line.
        last_failed = out.failed;
        if (settings.framing == Framing::redraw) out.text = "\x1b[H\x1b[2J" + out.text;
        else if (settings.framing == Framing::blocks && done > 0) out.text = "\n" + out.text;
        switch (write_stdout(out.text, canceller.fd())) {
            case Written::ok: break;
            case Written::reader_gone: return 0;
            case Written::failed: return 1;
            case Written::stopped: return stopped_status();
        }
    }
    return last_failed ? 1 : 0;
}

}  // namespace musatop::cli
