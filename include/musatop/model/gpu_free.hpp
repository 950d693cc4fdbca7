// "Which GPUs are free": the question a cluster's header answers. A GPU is free when
// no process uses it and its utilisation is under a threshold (idle cards sit at
// 0-2 % without work, so "above 0 %" would flip every second). Unknown is neither
// free nor in use: utilisation N/A, or a process list that is stale or absent.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "musatop/model/snapshot.hpp"
#include "musatop/model/view_filter.hpp"

namespace musatop {

inline constexpr double kDefaultFreeBelowPercent = 5.0;

struct FreeRule {
    double below_percent = kDefaultFreeBelowPercent;  // the setting cluster.free_below_percent
};

// True free, false in use, nullopt unknown.
std::optional<bool> gpu_is_free(const Device& device, const Snapshot& snapshot, const FreeRule& rule);

struct FreeCount {
    int free = 0, in_use = 0, unknown = 0;
};

// Over the GPUs `filter` shows (its --gpu), against every process of the snapshot:
// another user's process makes a GPU busy even when --user hides the process.
FreeCount count_free(const Snapshot& snapshot, const ViewFilter& filter, const FreeRule& rule);

// The indices of the free GPUs; nullopt when the process list is unknown.
std::optional<std::vector<std::int64_t>> free_gpu_indices(const Snapshot& snapshot, const ViewFilter& filter,
                                                          const FreeRule& rule);

}  // namespace musatop
