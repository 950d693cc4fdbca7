// Acting on a host process: the SIGTERM path. The decision whether a target is
// still current is pure (model/process_identity); this adapter re-verifies the
// identity against /proc while holding a pidfd, then signals through it.
#pragma once

#include <string>

#include "musatop/model/snapshot.hpp"

namespace musatop::actions {

// Sends SIGTERM (never SIGKILL, never with more privilege than musatop has) to the
// exact instance in `target` (PID + start ticks). Returns the status-line message.
std::string terminate_process(const GpuProcess& target);

}  // namespace musatop::actions
