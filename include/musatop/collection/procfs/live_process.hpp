// The one place that asks /proc "is this PID still the instance I saw?": identity is
// the start time in clock ticks since boot (field 22 of /proc/PID/stat), compared
// exactly, never as wall-clock seconds (which move when the clock is stepped).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "musatop/collection/procfs/proc_parse.hpp"

namespace musatop::procfs {

// /proc/PID/stat of a process that runs (not a zombie); none when it is gone or
// unreadable.
std::optional<ProcStat> read_live_stat(std::int64_t pid, const std::string& proc_root = "/proc");

// Start ticks of a running PID; none if gone.
std::optional<std::uint64_t> live_start_ticks(std::int64_t pid, const std::string& proc_root = "/proc");

// Whether the PID is a process (its own thread-group leader) rather than one of
// another process's threads; none when /proc cannot tell.
std::optional<bool> is_process_leader(std::int64_t pid, const std::string& proc_root = "/proc");

}  // namespace musatop::procfs
