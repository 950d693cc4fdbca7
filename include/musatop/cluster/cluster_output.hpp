// The cluster view as one-shot output: the cluster JSON document and gpustat's
// compact text, one block per node (cluster.md §4). Pure.
#pragma once

#include <ostream>
#include <string>

#include "musatop/cluster/cluster_view.hpp"
#include "musatop/model/gpu_free.hpp"
#include "musatop/output/gpustat_text.hpp"
#include "musatop/output/paint.hpp"

namespace musatop::cluster {

// {"schema_version": 1, "kind": "cluster", ..., "nodes": [...], "errors": [...]};
// each snapshot is the node's own --json document through `filter`.
// Appended to each node (after cluster.md's keys): "free_gpus", the indices of its
// free GPUs (model/gpu_free.hpp), null while its process list is unknown.
std::string render_cluster_json(const ClusterSnapshot& cluster, const ViewFilter& filter, const FreeRule& free = {});

// The same, written piece by piece: a thousand nodes' documents are never one
// string in memory. `one_line`: compact, one line (a JSON Lines stream).
void write_cluster_json(std::ostream& out, const ClusterSnapshot& cluster, const ViewFilter& filter,
                        const FreeRule& free = {}, bool one_line = false);

struct TextOptions {
    GpustatStyle style;  // the GPU lines; its paint colours on a terminal, as gpustat's
    FreeRule free;
    bool no_latency = false;  // clustat's --no-latency
};

// "free 2/8": a node's free GPUs among those shown; "" while unknown.
std::string free_label(const FreeCount& count);

// gpu01 (gpu01:9499)  2026-12-02 10:00:00  Driver 3.3.8  1.84 ms  free 1/2
// [0] MTT S4000 | 45°C,  12 % | 12288 / 49152 MB | alice(12000M) bob(288M)
std::string render_cluster_text(const ClusterSnapshot& cluster, const ViewFilter& filter, const TextOptions& options);

}  // namespace musatop::cluster
