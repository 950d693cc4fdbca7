// A source of snapshots: the real GMI + /proc collector, or the demo source.
#pragma once

#include "musatop/model/snapshot.hpp"

namespace musatop {

class Collector {
public:
    virtual ~Collector() = default;
    // One synchronous round. `cancel_fd`, when readable, asks a running round to stop
    // its external commands at once (used for a prompt shutdown).
    virtual Snapshot collect(int cancel_fd = -1) = 0;
};

}  // namespace musatop
