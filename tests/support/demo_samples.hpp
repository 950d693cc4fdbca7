// Demo snapshots at whole seconds since the epoch: the recording tests' samples.
#pragma once

#include <chrono>

#include "musatop/collection/demo/demo_source.hpp"

namespace musatop::testing {

inline WallTime at(long long seconds) { return WallTime(std::chrono::seconds(seconds)); }

inline Snapshot sample(long long seconds) { return make_demo_snapshot(static_cast<double>(seconds), at(seconds)); }

}  // namespace musatop::testing
