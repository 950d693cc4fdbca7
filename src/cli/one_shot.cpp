#include "musatop/cli/one_shot.hpp"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <csignal>

#include "musatop/model/view_filter.hpp"
#include "musatop/output/json_output.hpp"
#include "musatop/output/text_output.hpp"
#include "musatop/util/cancel.hpp"

namespace musatop::cli {
namespace {

// Ctrl-C, SIGTERM (`timeout 5 musatop --json`), SIGHUP or SIGQUIT during
// collection: the handler only pokes the eventfd, which makes the command runner
// kill and reap GMI at once; the main flow then exits 128 + the signal (130, 143,
// 129, 131), leaving no child behind.
// (Process-wide by nature: a signal handler can reach nothing else.)
volatile std::sig_atomic_t interrupted = 0;
const Canceller* interrupt_canceller = nullptr;
constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

void on_interrupt(int signal) {
    interrupted = signal;
    if (interrupt_canceller) interrupt_canceller->cancel();
}

// 0 when written, or when the reader went away (EPIPE: `| head` is not a failure);
// otherwise the errno of the failed write.
int write_all(const std::string& text) {
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(STDOUT_FILENO, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return errno == EPIPE ? 0 : errno;
        done += static_cast<std::size_t>(n);
    }
    return 0;
}

}  // namespace

int run_one_shot(const Options& options, Source& source) {
    const Canceller canceller;
    interrupt_canceller = &canceller;
    struct sigaction action {};
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    for (int s : kStopSignals) ::sigaction(s, &action, nullptr);
    ::signal(SIGPIPE, SIG_IGN);

    const Snapshot snapshot = source.collect(canceller.token());
    interrupt_canceller = nullptr;
    if (interrupted) return 128 + interrupted;
    const Snapshot view = apply_view(snapshot, options.filter);
    if (const int error = write_all(options.json ? render_json(view) : render_text(view))) {
        const std::string message = std::string("musatop: cannot write the output: ") + std::strerror(error) + "\n";
        [[maybe_unused]] const ssize_t reported = ::write(STDERR_FILENO, message.data(), message.size());
        return 1;
    }
    return snapshot.failed() ? 1 : 0;
}

}  // namespace musatop::cli
