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
ChildResult run_child(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                      std::chrono::milliseconds limit);

}  // namespace musatop::testing
