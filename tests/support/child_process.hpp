// The tests' own way to run a program: fork + exec with captured output and a
// deadline. Deliberately independent of musatop's subprocess runner, so a bug
// there cannot hide itself by breaking the fixtures that test it.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace musatop::testing {

struct ChildResult {
    int exit_code = -1;  // -1 when killed by a signal or timed out
    int signal = 0;
    bool timed_out = false;
    std::string out;
    std::string err;
};

// Runs argv[0] (a path) with `env` added to (and overriding) the inherited
// environment; stdin is /dev/null. On the deadline the child's process group is
// killed and reaped.
// With `ignore_sigchld` the program starts with SIGCHLD ignored, as some job
// runners and Python's signal(SIGCHLD, SIG_IGN) start their children.
ChildResult run_child(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                      std::chrono::milliseconds limit, bool ignore_sigchld = false);

// A program running in the background (stdio on /dev/null) for tests that signal
// it mid-way; killed and reaped by the destructor if still running.
class BackgroundChild {
public:
    BackgroundChild(const std::vector<std::string>& argv, const std::vector<std::string>& env);
    BackgroundChild(const BackgroundChild&) = delete;
    BackgroundChild& operator=(const BackgroundChild&) = delete;
    ~BackgroundChild();
    int pid() const { return pid_; }
    // The wait status once it exited (bounded by `limit`), else -1.
    int wait(std::chrono::milliseconds limit);

private:
    int pid_ = -1;
};

}  // namespace musatop::testing
