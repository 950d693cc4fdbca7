// Runs external commands (argv only, never a shell) concurrently, with stdin from
// /dev/null, captured and capped output, a deadline per command that kills the whole
// process group, and every child reaped on every path.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace musatop::subprocess {

struct CommandSpec {
    std::vector<std::string> argv;  // argv[0] is the resolved executable path
    std::string display_name;       // how argv[0] appears in messages
    std::chrono::milliseconds timeout{3000};
};

struct CommandOutcome {
    // status_lost: the child was reaped by someone else (SIGCHLD ignored by the
    // process, or another waitpid); its output is kept, its exit status unknown.
    enum class Kind { exited, start_failed, timed_out, signaled, output_too_large, cancelled, status_lost };
    Kind kind = Kind::start_failed;
    int exit_code = -1;
    int signal = 0;
    std::string start_error;  // strerror text when the command could not start
    std::string stdout_text;  // raw bytes
    std::string stderr_text;
    std::chrono::steady_clock::duration elapsed{};  // from spawn to reap
    bool parked = false;                            // did not die within the grace after SIGKILL (see ChildReaper)
};

// Children that did not die within the grace after SIGKILL: a GMI stuck in the
// driver (uninterruptible sleep) ignores SIGKILL until its system call returns.
// Waiting for it would stall the sampler, `--json` and quitting, so it is parked
// here and reaped, without blocking, by a later round of the owner.
class ChildReaper {
public:
    ChildReaper() = default;
    ChildReaper(const ChildReaper&) = delete;
    ChildReaper& operator=(const ChildReaper&) = delete;
    ~ChildReaper() { reap_finished(); }  // the rest are reaped by init when musatop exits

    void park(pid_t pid) { pids_.push_back(pid); }
    std::size_t reap_finished();  // returns how many are still parked
    std::size_t parked() const { return pids_.size(); }

private:
    std::vector<pid_t> pids_;
};

struct RunLimits {
    std::size_t max_output_bytes = 16 * 1024 * 1024;  // per command, stdout + stderr
    int cancel_fd = -1;                               // readable => kill everything and return (prompt shutdown)
    ChildReaper* reaper = nullptr;                    // where unkillable children go (none: left to init)
    std::chrono::milliseconds kill_grace{500};        // how long a SIGKILLed child may take to die
    // Waits up to the grace for a SIGKILLed child to exit; replaceable so tests can
    // play a child stuck in the kernel. Empty: the real wait.
    std::function<bool(pid_t, std::chrono::milliseconds)> wait_exited;
};

// Extra environment entries replace inherited ones of the same name.
std::vector<CommandOutcome> run_commands(const std::vector<CommandSpec>& specs,
                                         const std::vector<std::string>& extra_env, const RunLimits& limits);

// Looks `name` up in `path_variable` the way a shell would, except that empty and
// relative PATH entries (the current directory) are never searched. A name with a
// slash is used as given.
struct ExecutableLookup {
    enum class Status { found, not_found, unusable };
    Status status = Status::not_found;
    std::string path;
    std::string error;  // strerror text when a candidate exists but cannot be run
};
ExecutableLookup resolve_executable(const std::string& name, const std::string& path_variable);

}  // namespace musatop::subprocess
