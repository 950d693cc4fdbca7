// The program's two clocks. Time inside musatop is std::chrono throughout;
// conversion to seconds happens only at the edges (JSON, text, /proc).
#pragma once

#include <chrono>
#include <cstdint>

namespace musatop {

using WallTime = std::chrono::system_clock::time_point;   // for display and output only
using MonoTime = std::chrono::steady_clock::time_point;   // for every interval and deadline
using Seconds = std::chrono::duration<double>;

// A duration in seconds as the program's tick type (flags are read as seconds).
inline std::chrono::steady_clock::duration to_duration(Seconds seconds) {
    return std::chrono::duration_cast<std::chrono::steady_clock::duration>(seconds);
}

// Whole seconds on the monotonic clock: history buckets and the trend's second.
inline std::int64_t whole_seconds(MonoTime t) {
    return std::chrono::floor<std::chrono::seconds>(t.time_since_epoch()).count();
}

}  // namespace musatop
