// `musatop record` and `musatop replay` (headless): the cli side of the replay layer.
#pragma once

#include <memory>

#include "musatop/cli/options.hpp"
#include "musatop/model/source.hpp"

namespace musatop::cli {

// Samples `source` into the file until --duration, SIGINT, SIGTERM or SIGHUP
// (exit 0, the file complete); 1 when the file cannot be written.
int run_record(const Options& options, Source& source);

// With a terminal and neither --json nor --once: the replay screen. Otherwise prints
// the snapshot in force at --at (default: the last), or with --from/--to every
// snapshot in the range as JSON Lines. 1 for an unreadable recording, 2 for a TIME
// that is malformed or outside the recording.
int run_replay(const Options& options);

}  // namespace musatop::cli
