// The interactive cluster screen over a ClusterSampler, with the drill-down into
// one node's own screen (Enter) and back (Esc).
#pragma once

#include "musatop/model/gpu_free.hpp"
#include "musatop/cluster/cluster_sampler.hpp"
#include "musatop/tui/cluster/cluster_screen.hpp"
#include "musatop/tui/tui_app.hpp"

namespace musatop::tui {

struct ClusterTuiSettings {
    ViewFilter filter;
    cluster::NodeFilter nodes;
    std::string refresh_note;  // "every 1 s", "bounded by the scrape interval"
    bool ascii = false;
    FreeRule free;  // which GPUs the header counts as free
    // Colour, mouse and the rest for a node's screen.
    TuiSettings node_screen;
};

// The exit status, as run_screen's.
int run_cluster_tui(const ClusterTuiSettings& settings, cluster::ClusterSampler& sampler);

}  // namespace musatop::tui
