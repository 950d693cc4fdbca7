// The SIGTERM path. The pure half decides whether a target is still the process
// the user confirmed; the adapter half sends the signal through a pidfd bound to
// that exact process instance.
#pragma once

#include <string>

#include "musatop/model/snapshot.hpp"

namespace musatop::tui {

// True only when the newest unfiltered data is fresh and still shows this exact
// instance (GPU index, GPU UUID, PID, create time) with status ok.
bool target_is_current(const GpuProcess& target, const Snapshot* unfiltered);

// Re-verifies the identity against /proc, then sends SIGTERM (never SIGKILL, never
// with more privilege than musatop has). Returns the message for the status line.
std::string terminate_process(const GpuProcess& target);

// Unix create time of a running PID as the enricher computes it; none if gone.
std::optional<double> process_create_time(std::int64_t pid);

}  // namespace musatop::tui
