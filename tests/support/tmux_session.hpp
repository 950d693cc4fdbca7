// Drives the built musatop inside a private tmux server: type keys, read the screen.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "scenario.hpp"

namespace musatop::testing {

class TmuxSession {
public:
    // Starts `musatop args...` in a width x height window, with the scenario's PATH
    // and fake GMI. The wrapper records `stty -g` before and after, and the exit code.
    // `launcher` goes before the binary (e.g. {"/usr/bin/prlimit", "--fsize=8192"}).
    TmuxSession(const Scenario& scenario, const std::vector<std::string>& args, int width, int height,
                const std::vector<std::string>& env = {"TERM=screen-256color"},
                const std::vector<std::string>& launcher = {});
    TmuxSession(const TmuxSession&) = delete;
    TmuxSession& operator=(const TmuxSession&) = delete;
    ~TmuxSession();

    std::string screen() const;               // plain text
    std::string screen_with_escapes() const;  // with SGR sequences (colours)
    std::vector<std::string> lines() const;
    void keys(const std::vector<std::string>& tmux_keys) const;  // e.g. {"Down", "Enter"}
    void type(const std::string& text) const;                    // literal characters
    void resize(int width, int height) const;
    // A mouse report as a terminal in SGR 1006 mode sends it (row and column from
    // 0): button 0 left, 64/65 the wheel; a press, then a release for buttons.
    // `times` reports go in one write, as a fast double-click arrives.
    void mouse(int row, int column, int button = 0, int times = 1) const;
    // A tmux format about the pane, e.g. "#{mouse_sgr_flag}": what modes the
    // program asked the terminal for.
    std::string pane_format(const std::string& format) const;
    // Sends a signal to this session's musatop only (the child of the pane's shell).
    void signal_program(const std::string& signal_name) const;

    // Bounded waits for a state of the screen (or of the program).
    bool wait_for(const std::string& text, std::chrono::milliseconds limit = std::chrono::seconds(10)) const;
    bool wait_for_absent(const std::string& text, std::chrono::milliseconds limit = std::chrono::seconds(10)) const;
    bool wait_for_exit(std::chrono::milliseconds limit = std::chrono::seconds(10)) const;
    int exit_code() const;
    std::string stty_before() const;
    std::string stty_after() const;

private:
    std::string tmux(const std::vector<std::string>& args) const;

    const Scenario& scenario_;
    std::string socket_;
};

}  // namespace musatop::testing
