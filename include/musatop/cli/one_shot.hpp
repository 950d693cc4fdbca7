// `--once`, `--json` and the non-terminal default: one synchronous sample, printed.
#pragma once

#include "musatop/cli/options.hpp"
#include "musatop/model/source.hpp"

namespace musatop::cli {

// Exit code: 0 clean, 1 any error or stale source, 130 interrupted. A closed stdout
// (`| head`) counts as success.
int run_one_shot(const Options& options, Source& source);

}  // namespace musatop::cli
