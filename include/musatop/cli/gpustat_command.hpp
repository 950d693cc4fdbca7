// `musatop gpustat [FLAGS]`, and the binary run under the name `gpustat`: gpustat's
// flags with gpustat's meaning (-c, -u, -p, -a, -P, -F, -e, -f, --id, -i, --json,
// ...) and clustat's -n, -user and --no-latency, translated into the Options every
// other mode uses. The local host prints gpustat's layout; with --nodes,
// --prometheus or the config's node list, the cluster view's per-node layout.
#pragma once

#include <string>
#include <vector>

#include "musatop/cli/options.hpp"

namespace musatop::cli {

// True when `argv0` (a path) names the gpustat link.
bool invoked_as_gpustat(const std::string& argv0);

ParseResult parse_gpustat_command_line(const std::vector<std::string>& args);

// gpustat's header line: "node1  Fri Dec  4 21:37:34 2026  3.3.8-server".
std::string gpustat_header(const Snapshot& view);

}  // namespace musatop::cli
