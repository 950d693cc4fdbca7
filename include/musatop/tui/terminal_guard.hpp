// Last-resort terminal restoration: saves the termios settings at start and puts
// them back on every exit path, including fatal signals inside the UI. Also turns
// SIGINT/SIGTERM/SIGHUP into a quit request the main loop polls.
#pragma once

#include <termios.h>

namespace musatop::tui {

class TerminalGuard {
public:
    TerminalGuard();
    TerminalGuard(const TerminalGuard&) = delete;
    TerminalGuard& operator=(const TerminalGuard&) = delete;
    ~TerminalGuard();  // restores the saved settings and the signal handlers

    static bool quit_requested();
    // The signal that asked to quit (0 if none).
    static int quit_signal();
    // True once after a SIGCONT: stopped from outside (SIGSTOP, not ncurses' own
    // Ctrl-Z), the shell put the terminal back in line mode with echo, so the
    // screen must set its modes again and redraw whole.
    static bool take_resumed();

private:
    bool saved_ = false;
};

}  // namespace musatop::tui
