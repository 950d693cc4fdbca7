// Runs external commands (argv only, never a shell) concurrently, with stdin from
// /dev/null, captured and capped output, a deadline per command that kills the whole
// process group, and every child reaped on every path.
#pragma once

#include <chrono>
#include <string>
#include <vector>


namespace musatop::subprocess {

struct CommandSpec {
    std::vector<std::string> argv;  // argv[0] is the resolved executable path
    std::string display_name;       // how argv[0] appears in messages
    std::chrono::milliseconds timeout{3000};
};

struct CommandOutcome {
    enum class Kind { exited, start_failed, timed_out, signaled, output_too_large, cancelled };
    Kind kind = Kind::start_failed;
    int exit_code = -1;
    int signal = 0;
    std::string start_error;  // strerror text when the command could not start
    std::string stdout_text;  // raw bytes
    std::string stderr_text;
    std::chrono::steady_clock::duration elapsed{};  // from spawn to reap
};

struct RunLimits {
    std::size_t max_output_bytes = 16 * 1024 * 1024;  // per command, stdout + stderr
    int cancel_fd = -1;  // readable => kill everything and return (prompt shutdown)
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
