// Demo snapshots at whole seconds since the epoch: the recording tests' samples.
#pragma once

#include <chrono>

#include "musatop/collection/demo/demo_source.hpp"
#include "musatop/replay/recording.hpp"

namespace musatop::testing {

inline WallTime at(long long seconds) { return WallTime(std::chrono::seconds(seconds)); }

inline Snapshot sample(long long seconds) { return make_demo_snapshot(static_cast<double>(seconds), at(seconds)); }

// A recording's header, begun at `seconds`.
inline replay::Header header_at(long long seconds) {
    replay::Header h;
    h.musatop_version = "test";
    h.hostname = "node";
    h.started_at = at(seconds);
    return h;
}

}  // namespace musatop::testing
