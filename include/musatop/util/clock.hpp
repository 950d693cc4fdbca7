// The program's two clocks. Time inside musatop is std::chrono throughout;
// conversion to seconds happens only at the edges (JSON, text, /proc).
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <optional>

namespace musatop {

using WallTime = std::chrono::system_clock::time_point;  // for display and output only
using MonoTime = std::chrono::steady_clock::time_point;  // for every interval and deadline
using Seconds = std::chrono::duration<double>;

// The one way to read each clock (tests inject a clock where timing matters).
inline MonoTime mono_now() { return std::chrono::steady_clock::now(); }
inline WallTime wall_now() { return std::chrono::system_clock::now(); }

// A duration in seconds as the program's tick type (flags are read as seconds).
inline std::chrono::steady_clock::duration to_duration(Seconds seconds) {
    return std::chrono::duration_cast<std::chrono::steady_clock::duration>(seconds);
}

// Whole seconds on the monotonic clock: history buckets and the trend's second.
inline std::int64_t whole_seconds(MonoTime t) {
    return std::chrono::floor<std::chrono::seconds>(t.time_since_epoch()).count();
}

// A Unix time read from outside (a remote answer, a file, a flag). The wall
// clock counts nanoseconds in 64 bits and ends in April 2262; a time it cannot
// hold (or before 1970, or not a number) is no time, never an overflow.
inline std::optional<WallTime> wall_time_from_unix(std::int64_t seconds) {
    constexpr std::int64_t kLast =
        std::chrono::duration_cast<std::chrono::seconds>(WallTime::duration::max()).count() - 1;
    if (seconds < 0 || seconds > kLast) return std::nullopt;
    return WallTime(std::chrono::seconds(seconds));
}

inline std::optional<WallTime> wall_time_from_unix(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0) return std::nullopt;
    const auto whole = wall_time_from_unix(static_cast<std::int64_t>(std::min(seconds, 1e18)));
    if (!whole) return std::nullopt;
    return *whole + std::chrono::duration_cast<WallTime::duration>(Seconds(seconds - std::floor(seconds)));
}

}  // namespace musatop
