// What makes a process row "the same process" across samples, and whether a row the
// user picked is still current in the newest data. Pure: the SIGTERM path in
// actions/ and the screen's selection both use it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "musatop/model/snapshot.hpp"

namespace musatop {

// GPU (index and UUID), PID and start ticks: a reused PID has other start ticks,
// a process moved to a card with another UUID is another row.
struct ProcessIdentity {
    std::int64_t device_index = 0;
    std::optional<std::string> device_uuid;
    std::int64_t pid = 0;
    std::optional<std::uint64_t> start_ticks;
    bool operator==(const ProcessIdentity&) const = default;
};

ProcessIdentity identity_of(const GpuProcess& process);

// True only when the newest unfiltered data is fresh, live (not demo or replayed)
// and still shows this exact instance with status ok.
bool target_is_current(const GpuProcess& target, const Snapshot* unfiltered, Provenance provenance = Provenance::live);

}  // namespace musatop
