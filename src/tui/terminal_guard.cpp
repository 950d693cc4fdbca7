#include "musatop/tui/terminal_guard.hpp"

#include <signal.h>
#include <unistd.h>

#include <csignal>

#include "musatop/util/stop_signals.hpp"

namespace musatop::tui {
namespace {

// Signal handlers can only reach globals; these are written once before the
// handlers are installed and read only by the handlers.
struct termios saved_termios;
volatile std::sig_atomic_t have_saved_termios = 0;
volatile std::sig_atomic_t pending_quit_signal = 0;
volatile std::sig_atomic_t pending_resume = 0;

// The stop signals of every mode (util/stop_signals): SIGQUIT (Ctrl-\\) ends the
// screen like SIGTERM, the terminal restored, GMI children killed, exit 131, and
// no core dump of a monitor. The screen keeps its own handler: it must also put
// the terminal back from the main loop.
constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS, SIGXCPU, SIGXFSZ};

void on_quit_signal(int signal) { pending_quit_signal = signal; }
void on_resume(int) { pending_resume = 1; }

// Async-signal-safe only: tcsetattr and write, then die by the same signal.
void on_fatal_signal(int signal) {
    if (have_saved_termios) ::tcsetattr(STDIN_FILENO, TCSANOW, &saved_termios);
    // Mouse reporting off too: a shell left with it on prints a report per click.
    static const char reset[] =
        "\x1b[?1006l\x1b[?1000l\x1b[0m\x1b[?25h\x1b[?1049l\r\nmusatop: fatal error inside the UI\r\n";
    if (::write(STDOUT_FILENO, reset, sizeof reset - 1) < 0) {
        // Nothing left to report to.
    }
    ::signal(signal, SIG_DFL);
    ::raise(signal);
}

void install(int signal, void (*handler)(int)) {
    struct sigaction action {};
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    ::sigaction(signal, &action, nullptr);
}

}  // namespace

TerminalGuard::TerminalGuard() {
    if (::tcgetattr(STDIN_FILENO, &saved_termios) == 0) {
        have_saved_termios = 1;
        saved_ = true;
    }
    pending_quit_signal = 0;
    for (int s : kStopSignals) install(s, on_quit_signal);
    for (int s : kFatalSignals) install(s, on_fatal_signal);
    pending_resume = 0;
    install(SIGCONT, on_resume);  // without SA_RESTART: the UI's wait returns at once
}

TerminalGuard::~TerminalGuard() {
    for (int s : kFatalSignals) ::signal(s, SIG_DFL);
    for (int s : kStopSignals) ::signal(s, SIG_DFL);
    ::signal(SIGCONT, SIG_DFL);
    if (saved_) ::tcsetattr(STDIN_FILENO, TCSADRAIN, &saved_termios);
    have_saved_termios = 0;
}

bool TerminalGuard::quit_requested() { return pending_quit_signal != 0; }
int TerminalGuard::quit_signal() { return pending_quit_signal; }

bool TerminalGuard::take_resumed() {
    if (!pending_resume) return false;
    pending_resume = 0;
    return true;
}

}  // namespace musatop::tui
