// The one seam every data source plugs into: the local GMI + /proc collector, the
// demo, and later a recording, a remote `musatop serve` or a Prometheus server.
// The sampler and the one-shot modes see only this interface, so a new source is a
// new file behind it and nothing above moves.
#pragma once

#include <string>

#include "musatop/model/snapshot.hpp"
#include "musatop/util/cancel.hpp"

namespace musatop {

class Source {
public:
    virtual ~Source() = default;

    // One round, one complete immutable snapshot. Bad input from outside (a failing
    // tool, a dead node) is reported inside the snapshot: errors, stale flags, the
    // last good data. A thrown exception means an internal failure; the sampler
    // turns it into a stale snapshot. When `cancel` fires, a round in progress
    // stops its external work at once and returns what it has.
    virtual Snapshot collect(const CancelToken& cancel) = 0;

    // One line for logs and status: what is being sampled ("mthreads-gmi", "demo").
    virtual std::string describe() const = 0;
};

}  // namespace musatop
