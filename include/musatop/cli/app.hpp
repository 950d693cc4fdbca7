// Program entry: flags -> mode (one-shot text/JSON or the TUI) -> exit code.
#pragma once

#include <string>
#include <vector>

namespace musatop::cli {

// `stdout_closed`: the program was started with no standard output at all.
int run_program(const std::vector<std::string>& args, bool stdout_closed = false);

}  // namespace musatop::cli
