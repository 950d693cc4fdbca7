// The cluster screen: totals, one block per node (state, latency, host, a row per
// GPU with UTIL and VRAM bars and the users on it), and one process table over
// every node. Pure: state and data in, a Canvas out; keys change the state.
#pragma once

#include <string>
#include <vector>

#include "musatop/cluster/cluster_view.hpp"
#include "musatop/model/gpu_free.hpp"
#include "musatop/tui/canvas.hpp"
#include "musatop/tui/keys.hpp"
#include "musatop/tui/line_editor.hpp"
#include "musatop/tui/status_message.hpp"

namespace musatop::tui {

struct ClusterUiState {
    ViewFilter filter;            // inside each node: search, sort, --user, --gpu, --pid
    cluster::NodeFilter nodes;    // -n, edited live with n
    int selected = 0;             // among the nodes shown
    int line_offset = 0;          // first line of the node area shown
    bool search_editing = false;  // "/" prompt
    bool node_editing = false;    // "n" prompt
    LineEditor draft;
    std::string search_before;  // what Esc puts back: the search filters as it is typed
    bool help = false;
    int help_scroll = 0;
    StatusMessage message;
};

struct ClusterScreenInput {
    const cluster::ClusterSnapshot* cluster = nullptr;  // null before the first round
    const ClusterUiState* state = nullptr;
    bool ascii = false;
    std::string title;
    std::string refresh_note;  // "every 1 s" or "bounded by the scrape interval"
    MonoTime now{};
    FreeRule free;
};

struct ClusterGeometry {
    bool too_small = false;
    int node_top = 2;
    int node_rows = 1;    // lines of the node area
    int line_offset = 0;  // clamped
    int help_scroll = 0;
};

// The nodes the screen shows: -n applied, in the order given.
std::vector<const cluster::NodeView*> shown_nodes(const cluster::ClusterSnapshot& cluster, const ClusterUiState& state);

// Each shown node's snapshot through the filters (null for a node never reached).
using NodeViews = std::vector<std::shared_ptr<const Snapshot>>;
NodeViews node_views(const std::vector<const cluster::NodeView*>& nodes, const ViewFilter& filter);

// The node area's first line of each node, and the total (one header line plus
// one line per GPU that passes the filters).
std::vector<int> node_lines(const NodeViews& views, int& total);

ClusterGeometry draw_cluster_screen(Canvas& canvas, const ClusterScreenInput& in);

enum class ClusterEffect { none, redraw, quit, refresh, drill };

// `node_page`: lines of the node area (for PgUp/PgDn).
ClusterEffect handle_cluster_key(ClusterUiState& state, const Key& key, const cluster::ClusterSnapshot* cluster,
                                 int node_page, MonoTime now);

std::vector<std::string> cluster_help_lines();
std::string cluster_footer(bool wide);

}  // namespace musatop::tui
