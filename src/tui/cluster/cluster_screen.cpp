#include "musatop/tui/cluster/cluster_screen.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "musatop/cluster/cluster_output.hpp"
#include "musatop/cluster/cluster_tracker.hpp"
#include "musatop/model/history.hpp"
#include "musatop/model/plausible.hpp"
#include "musatop/output/format.hpp"
#include "musatop/output/sanitize.hpp"
#include "musatop/tui/dialogs/modal.hpp"
#include "musatop/tui/widgets/bar.hpp"

namespace musatop::tui {
namespace {

constexpr Style kBold{Color::none, 0, true};
constexpr Style kDim{Color::none, 0, false, true};
constexpr int kNodeWidth = 14;
constexpr int kUsersRoom = 10;  // the GPU line's users keep this much before its bars grow

using FreeCounts = std::vector<std::optional<FreeCount>>;  // per shown node; nullopt without a snapshot

// Each node's GPUs counted once per frame (every process, not only those shown):
// the title's totals and each node's header read the same counts.
FreeCounts free_counts(const std::vector<const cluster::NodeView*>& nodes, const NodeViews& views,
                       const ViewFilter& filter, const FreeRule& rule) {
    FreeCounts counts(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (views[i]) counts[i] = count_free(*nodes[i]->snapshot, filter, rule);
    return counts;
}

std::string totals(const std::vector<const cluster::NodeView*>& nodes, const NodeViews& views,
                   const FreeCounts& counts) {
    int ok = 0, stale = 0, down = 0;
    FreeCount gpus;
    std::int64_t used = 0, total = 0;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const auto* node = nodes[i];
        (node->state == cluster::NodeState::ok ? ok : node->state == cluster::NodeState::stale ? stale : down)++;
        if (!views[i]) continue;
        const FreeCount& count = *counts[i];
        gpus.free += count.free, gpus.in_use += count.in_use, gpus.unknown += count.unknown;
        for (const auto& d : views[i]->devices) {
            used = saturating_add(used, d.memory_used_bytes.value_or(0));
            total = saturating_add(total, d.memory_total_bytes.value_or(0));
        }
    }
    // Counts of zero are left out: at 80 columns the line must hold what matters.
    std::string line = "nodes " + std::to_string(nodes.size()) + ": " + std::to_string(ok) + " ok";
    if (stale) line += ", " + std::to_string(stale) + " stale";
    if (down) line += ", " + std::to_string(down) + " down";
    line += " | GPUs " + std::to_string(gpus.free + gpus.in_use + gpus.unknown) + ": " + std::to_string(gpus.free) +
            " free, " + std::to_string(gpus.in_use) + " in use";
    if (gpus.unknown) line += ", " + std::to_string(gpus.unknown) + " unknown";
    return line + " | VRAM " + format_used_total(used, total);
}

std::string free_text(const std::optional<FreeCount>& count) {
    const std::string label = count ? cluster::free_label(*count) : "";
    return label.empty() ? "" : "  " + label;
}

// Name, address and state, then what else fits `width`, most useful first: an
// error or a hint, free GPUs, the host's CPU and RAM, the latency.
std::string node_header(const cluster::NodeView& node, WallTime sampled_at, const std::string& free, int width) {
    std::string line =
        fit_tail(sanitize(node.hostname.value_or(node.address)), kNodeWidth) + " " + sanitize(node.address) + "  ";
    if (node.state == cluster::NodeState::ok) {
        line += "ok";
    } else if (node.state == cluster::NodeState::stale && node.fetched_at) {
        line += "STALE " + format_duration(std::chrono::duration<double>(sampled_at - *node.fetched_at).count());
    } else {
        line += to_string(node.state);
    }
    if (node.state != cluster::NodeState::ok && node.error) line += "  " + sanitize(*node.error);
    if (node.state == cluster::NodeState::ok && node.hint) line += "  " + sanitize(*node.hint);
    const auto add_if_room = [&](const std::string& piece) {
        if (display_width(line) + display_width(piece) + 2 <= width) line += piece;
    };
    add_if_room(free);
    if (node.snapshot) {
        const auto& host = node.snapshot->host;
        add_if_room("  CPU " + format_number(host.cpu_percent, "%"));
        add_if_room("  RAM " + format_used_total(host.memory_used_bytes, host.memory_total_bytes));
    }
    if (node.latency_ms) add_if_room("  " + cluster::latency_text(*node.latency_ms));
    return line;
}

std::string users_on(const Snapshot& view, std::int64_t index) {
    std::set<std::string> users;
    for (const auto& p : view.processes)
        if (p.device_index == index) users.insert(sanitize(p.username.value_or("?")));
    std::string out;
    for (const auto& user : users) out += (out.empty() ? "" : " ") + user;
    return out;
}

// "  ! firmware NOT RESPONDING (Poll failing) (+2 more)": the GPU's first finding.
std::string finding_text(const Device& d) {
    if (d.health.empty()) return "";
    const std::string more = d.health.size() > 1 ? " (+" + std::to_string(d.health.size() - 1) + " more)" : "";
    return "  ! " + sanitize(d.health.front()) + more;
}

void draw_gpu_line(Canvas& canvas, int row, const Device& d, const Snapshot& view, bool ascii, int bar, bool dim) {
    const Style style = Style{}.with_dim(dim);
    // "!" marks health findings as on the local screen; the newest words follow the users.
    const std::string mark = d.health.empty() ? " " : "!";
    int col = canvas.put(
        row, 0, "  [" + std::to_string(d.index) + "]" + mark + fit_right(sanitize_or_na(d.name), 12) + " ", style);
    col = canvas.put(
        row, col,
        render_bar(d.gpu_utilization_percent, bar, ascii) + " " + percent_label(d.gpu_utilization_percent) + " ",
        style);
    const auto vram = occupancy_percent(d.memory_used_bytes, d.memory_total_bytes);
    col = canvas.put(row, col, render_bar(vram, bar, ascii) + " " + percent_label(vram) + " ", style);
    canvas.put(row, col,
               pad_left(format_used_total(d.memory_used_bytes, d.memory_total_bytes), 13) + " " +
                   pad_left(format_number(d.temperature_c, "C"), 4) + " " +
                   pad_left(format_number(d.power_draw_w, "W"), 5) + "  " + users_on(view, d.index) + finding_text(d),
               style);
}

struct ProcessRow {
    std::size_t node;  // into the shown nodes
    const GpuProcess* process;
};

void draw_processes(Canvas& canvas, int top, int rows, const std::vector<const cluster::NodeView*>& nodes,
                    const NodeViews& views, const ViewFilter& filter) {
    std::size_t count = 0;
    for (const auto& view : views) count += view ? view->processes.size() : 0;
    std::vector<ProcessRow> all;
    all.reserve(count);
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (views[i])
            for (const auto& p : views[i]->processes) all.push_back({i, &p});
    // Only the rows that fit are ordered (thousands of processes, a screenful shown);
    // the node's place breaks ties, so the order is the one a stable sort would give.
    const auto shown = std::min(all.size(), static_cast<std::size_t>(std::max(0, rows - 2)));
    std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(shown), all.end(),
                      [&](const ProcessRow& a, const ProcessRow& b) {
                          if (process_before(*a.process, *b.process, filter.sort, filter.reverse)) return true;
                          if (process_before(*b.process, *a.process, filter.sort, filter.reverse)) return false;
                          return a.node < b.node || (a.node == b.node && a.process < b.process);
                      });
    canvas.put(top, 0,
               "Processes " + std::to_string(all.size()) + " | sort=" + to_string(filter.sort) +
                   (filter.reverse ? " reversed" : "") +
                   (filter.search.empty() ? "" : " | search=" + sanitize(filter.search)),
               kBold);
    canvas.put(top + 1, 0, pad_right("NODE", kNodeWidth) + " GPU     PID USER        GPU MEM COMMAND",
               Style{Color::none, 0, false, false, false, true});
    // A hostname several nodes share (agents on one host, cloned images) tells
    // them apart no more: those rows name the address instead.
    std::map<std::string, int> hostname_uses;
    for (const auto* node : nodes)
        if (node->hostname) ++hostname_uses[*node->hostname];
    for (int i = 0; i < rows - 2 && i < static_cast<int>(all.size()); ++i) {
        const auto& [n, process] = all[static_cast<std::size_t>(i)];
        const GpuProcess& p = *process;
        const auto& hostname = nodes[n]->hostname;
        const std::string node = sanitize(hostname && hostname_uses[*hostname] == 1 ? *hostname : nodes[n]->address);
        canvas.put(top + 2 + i, 0,
                   fit_tail(node, kNodeWidth) + " " + pad_left(std::to_string(p.device_index), 3) + " " +
                       pad_left(std::to_string(p.pid), 7) + " " + fit_right(sanitize_or_na(p.username), 10) + " " +
                       pad_left(format_bytes(p.gpu_memory_bytes), 9) + " " + sanitize_or_na(p.command));
    }
}

}  // namespace

std::vector<const cluster::NodeView*> shown_nodes(const cluster::ClusterSnapshot& cluster,
                                                  const ClusterUiState& state) {
    std::vector<const cluster::NodeView*> nodes;
    for (const auto& node : cluster.nodes)
        if (state.nodes.matches(node)) nodes.push_back(&node);
    return nodes;
}

NodeViews node_views(const std::vector<const cluster::NodeView*>& nodes, const ViewFilter& filter) {
    NodeViews views(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) views[i] = cluster::shared_node_view(nodes[i]->snapshot, filter);
    return views;
}

std::vector<int> node_lines(const NodeViews& views, int& total) {
    std::vector<int> starts;
    total = 0;
    for (const auto& view : views) {
        starts.push_back(total);
        total += 1 + (view ? static_cast<int>(view->devices.size()) : 0);
    }
    return starts;
}

ClusterGeometry draw_cluster_screen(Canvas& canvas, const ClusterScreenInput& in) {
    ClusterGeometry g;
    const int width = canvas.width(), height = canvas.height();
    if (width < 60 || height < 12) {
        g.too_small = true;
        canvas.put(0, 0, "Terminal too small: resize to 60x12 or more.");
        canvas.put(1, 0, "Press q or Ctrl-C to quit.");
        return g;
    }
    const ClusterUiState& state = *in.state;
    if (state.help) {
        int scroll = state.help_scroll;
        draw_modal(canvas,
                   ModalView{in.title + " cluster help", cluster_help_lines(), "Esc / q / ? return | Up / Down scroll",
                             Style{Color::none, 0, true}, 2},
                   scroll);
        g.help_scroll = scroll;
        return g;
    }
    const int body = height - 4;  // title, settings, status, footer
    g.node_rows = std::max(2, body * 3 / 5);
    const int process_rows = body - g.node_rows;
    if (!in.cluster) {
        canvas.put(0, 0, in.title + " cluster | waiting for the first round...", kBold);
    } else {
        const auto nodes = shown_nodes(*in.cluster, state);
        // Each node through the filters once per frame; totals, lines and the
        // process table all read these.
        const auto views = node_views(nodes, state.filter);
        const auto counts = free_counts(nodes, views, state.filter, in.free);
        const std::string summary = " | " + totals(nodes, views, counts);
        // The version and the word "cluster" give way first on a narrow terminal.
        const std::string title = in.title + " cluster";
        canvas.put(0, 0, (display_width(title + summary) <= width ? title : "musatop") + summary, kBold);
        canvas.put(1, 0,
                   in.refresh_note + (in.cluster->note ? " | " + sanitize(*in.cluster->note) : "") +
                       (state.nodes.empty() ? "" : " | -n " + sanitize(state.nodes.text())) +
                       (state.filter.users.empty() ? "" : " | user " + sanitize(state.filter.users.front())),
                   kDim);
        int total = 0;
        const auto starts = node_lines(views, total);
        g.line_offset = std::clamp(state.line_offset, 0, std::max(0, total - g.node_rows));
        const int bar = std::clamp((width - 62 - kUsersRoom) / 2, 4, 20);
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            const int first = starts[i] - g.line_offset;
            if (first >= g.node_rows) break;
            const auto& node = *nodes[i];
            const bool selected = static_cast<int>(i) == state.selected;
            if (first >= 0) {
                Style style = node.state == cluster::NodeState::ok ? kBold : Style{Color::unknown, 0, true};
                style.reverse = selected;
                canvas.put(g.node_top + first, 0,
                           (selected ? "> " : "  ") +
                               node_header(node, in.cluster->sampled_at, free_text(counts[i]), width - 2),
                           style);
                if (selected) canvas.set_style(g.node_top + first, 0, width - 1, style);
            }
            if (!views[i]) continue;
            const Snapshot& view = *views[i];
            for (std::size_t k = 0; k < view.devices.size(); ++k) {
                const int line = first + 1 + static_cast<int>(k);
                if (line < 0) continue;
                if (line >= g.node_rows) break;
                draw_gpu_line(canvas, g.node_top + line, view.devices[k], view, in.ascii, bar,
                              node.state != cluster::NodeState::ok);
            }
        }
        if (nodes.empty()) canvas.put(g.node_top, 0, "No nodes match the node filter.");
        draw_processes(canvas, g.node_top + g.node_rows, process_rows, nodes, views, state.filter);
    }
    std::string status;
    if (state.search_editing) status = "/" + state.draft.text + "  [Enter apply, Esc cancel]";
    else if (state.node_editing)
        status = "nodes: " + state.draft.text + "  [names, gpu[01-04], gpu*; Enter apply, Esc cancel]";
    else if (state.message.visible(in.now)) status = state.message.text;
    canvas.put(height - 2, 0, status, kBold);
    canvas.put(height - 1, 0, cluster_footer(width >= 80));
    return g;
}

}  // namespace musatop::tui
