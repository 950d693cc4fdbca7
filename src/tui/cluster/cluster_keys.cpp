// The cluster screen's keys: one table for dispatch, the footer and the help.
#include <algorithm>
#include <array>

#include "musatop/tui/cluster/cluster_screen.hpp"
#include "musatop/tui/key_rows.hpp"

namespace musatop::tui {
namespace {

// clang-format off
enum class Do { none, quit, help, up, down, page_up, page_down, first, last, open, nodes, search, sort, reverse, refresh, kill };

// Footer order first, then the keys only the help dialog names.
constexpr std::array<KeyRow<Do>, 11> kKeys = {{
    {"q", "q quit", true, "quit (Ctrl-C and F10 too).",
     {{{ch('q'), Do::quit}, {ch('Q'), Do::quit}, {kind(KeyKind::interrupt), Do::quit}, {fn(10), Do::quit}}}},
    {"?", "? help", true, "this help (F1 too).", {{{ch('?'), Do::help}, {fn(1), Do::help}}}},
    {"Up / Down", "Up/Dn node", false, "select the previous / next node.",
     {{{kind(KeyKind::up), Do::up}, {kind(KeyKind::back_tab), Do::up}, {kind(KeyKind::down), Do::down},
       {kind(KeyKind::tab), Do::down}}}},
    {"PgUp / PgDn", "", false, "page through the nodes.",
     {{{kind(KeyKind::page_up), Do::page_up}, {kind(KeyKind::page_down), Do::page_down}}}},
    {"Home / End", "", false, "first / last node.", {{{kind(KeyKind::home), Do::first}, {kind(KeyKind::end), Do::last}}}},
    {"Enter", "Enter open", true, "open the selected node's own screen (its bars, trends, processes); Esc returns.",
     {{{kind(KeyKind::enter), Do::open}}}},
    {"n", "n nodes", true, "edit the node filter: names, gpu[01-04], gpu*, comma-separated; empty shows all.",
     {{{ch('n'), Do::nodes}}}},
    {"/", "/ find", false, "search PIDs, GPU indices, users, commands and jobs on every node as you type (F3 too); Esc "
     "puts back the old search.",
     {{{ch('/'), Do::search}, {fn(3), Do::search}}}},
    {"s / S", "s/S sort", false, "next sort field (F6 too) / reverse the order of the process table.",
     {{{ch('s'), Do::sort}, {ch('S'), Do::reverse}, {fn(6), Do::sort}}}},
    {"r / F5", "r refresh", false, "ask every node now.",
     {{{ch('r'), Do::refresh}, {ch('R'), Do::refresh}, {kind(KeyKind::refresh), Do::refresh}}}},
    {"k", "", false, "refused: the processes of remote nodes are read-only here (F9 too).",
     {{{ch('k'), Do::kill}, {fn(9), Do::kill}}}},
}};
// clang-format on

// The first line of the selected node inside the node area.
void keep_selected_visible(ClusterUiState& state, const cluster::ClusterSnapshot* cluster, int page) {
    if (!cluster) return;
    const auto nodes = shown_nodes(*cluster, state);
    state.selected = std::clamp(state.selected, 0, std::max(0, static_cast<int>(nodes.size()) - 1));
    int total = 0;
    const auto starts = node_lines(node_views(nodes, state.filter), total);
    if (starts.empty()) return;
    const int first = starts[static_cast<std::size_t>(state.selected)];
    if (first < state.line_offset) state.line_offset = first;
    if (first >= state.line_offset + page) state.line_offset = first - page + 1;
}

ClusterEffect edit_prompt(ClusterUiState& state, const Key& key, MonoTime now) {
    const EditResult result = state.draft.apply(key);
    if (result == EditResult::ignored) return ClusterEffect::none;
    if (state.search_editing)  // as it is typed; Esc puts back what was there
        state.filter.search = result == EditResult::cancelled ? state.search_before : state.draft.text;
    if (result == EditResult::accepted) {
        if (state.node_editing) {
            auto parsed = cluster::NodeFilter::parse(state.draft.text);
            if (parsed.ok()) {
                state.nodes = std::move(parsed.value());
                state.selected = 0;
                state.line_offset = 0;
            } else {
                state.message.show(parsed.error(), now);
            }
        }
    }
    if (result != EditResult::edited) state.search_editing = state.node_editing = false;
    return ClusterEffect::redraw;
}

}  // namespace

std::vector<std::string> cluster_help_lines() {
    std::vector<std::string> lines = help_of<Do>(kKeys);
    for (const char* note : {"", "A node is ok, STALE (its last good data, with its age), unreachable or error.",
                             "Latency is the time of the node's last answer (microseconds under 1 ms).",
                             "A slow node is not asked again until it answers or times out (--timeout).",
                             "--user, --gpu, --pid, --sort and --reverse apply inside each node."})
        lines.emplace_back(note);
    return lines;
}

std::string cluster_footer(bool wide) { return footer_of<Do>(kKeys, wide); }

ClusterEffect handle_cluster_key(ClusterUiState& state, const Key& key, const cluster::ClusterSnapshot* cluster,
                                 int page, MonoTime now) {
    if (key.kind == KeyKind::resize || key.kind == KeyKind::redraw) return ClusterEffect::redraw;
    if (state.search_editing || state.node_editing) return edit_prompt(state, key, now);
    if (state.help) {
        if (key.kind == KeyKind::up) state.help_scroll = std::max(0, state.help_scroll - 1);
        else if (key.kind == KeyKind::down) ++state.help_scroll;
        else if (key.kind == KeyKind::escape || key.kind == KeyKind::enter || key.is('q') || key.is('?'))
            state.help = false;
        return ClusterEffect::redraw;
    }
    const Do action = action_in<Do>(kKeys, key);
    if (action == Do::none) return ClusterEffect::none;
    const int count = cluster ? static_cast<int>(shown_nodes(*cluster, state).size()) : 0;
    switch (action) {
        case Do::none: return ClusterEffect::none;
        case Do::quit: return ClusterEffect::quit;
        case Do::help:
            state.help = true;
            state.help_scroll = 0;
            break;
        case Do::up: --state.selected; break;
        case Do::down: ++state.selected; break;
        case Do::page_up:
            state.line_offset = std::max(0, state.line_offset - page);
            state.selected -= std::max(1, page / 3);
            break;
        case Do::page_down:
            state.line_offset += page;
            state.selected += std::max(1, page / 3);
            break;
        case Do::first: state.selected = 0; break;
        case Do::last: state.selected = count - 1; break;
        case Do::open: return count ? ClusterEffect::drill : ClusterEffect::none;
        case Do::nodes:
            state.node_editing = true;
            state.draft.text = state.nodes.text();
            break;
        case Do::search:
            state.search_editing = true;
            state.draft.text = state.search_before = state.filter.search;
            break;
        case Do::sort:  // the table shows no CPU or RSS column
            state.filter.sort = next_sort_field(state.filter.sort, false);
            break;
        case Do::reverse: state.filter.reverse = !state.filter.reverse; break;
        case Do::refresh: state.message.show("Refresh requested.", now); return ClusterEffect::refresh;
        case Do::kill:
            state.message.show("Remote processes are read-only: SIGTERM is refused in the cluster view.", now);
            break;
    }
    keep_selected_visible(state, cluster, page);
    return ClusterEffect::redraw;
}

}  // namespace musatop::tui
