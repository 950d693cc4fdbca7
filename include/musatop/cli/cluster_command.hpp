// `musatop --nodes ...` / `--prometheus URL`: the cluster view's one-shot outputs
// and its screen (docs/cluster.md).
#pragma once

#include "musatop/cli/options.hpp"

namespace musatop::cli {

// The exit status: 0 when every node shown is ok, 1 otherwise, 2 for bad input.
int run_cluster(const Options& options, bool interactive);

}  // namespace musatop::cli
