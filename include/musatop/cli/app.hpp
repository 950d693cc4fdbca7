// Program entry: flags -> mode (one-shot text/JSON or the TUI) -> exit code.
#pragma once

#include <string>
#include <vector>

namespace musatop::cli {

int run_program(const std::vector<std::string>& args);

}  // namespace musatop::cli
