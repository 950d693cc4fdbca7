// The cluster screen's keys: one table for dispatch, the footer and the help.
#include <algorithm>
#include <array>

#include "musatop/tui/cluster/cluster_screen.hpp"

namespace musatop::tui {
namespace {

enum class Do { quit, help, up, down, page_up, page_down, first, last, open, nodes, search, sort, reverse, refresh, kill };

struct ClusterKey {
    std::string_view keys;
    std::string_view hint;  // footer words; empty: help only
    std::string_view help;
    std::array<Key, 3> bindings;
    Do action;
};

constexpr Key ch(char32_t c) { return Key{KeyKind::character, c}; }
constexpr Key kind(KeyKind k) { return Key{k, 0}; }
constexpr Key none() { return Key{KeyKind::other, 0}; }

constexpr std::array<ClusterKey, 15> kKeys = {{
    {"q", "q quit", "quit (Ctrl-C too).", {ch('q'), ch('Q'), kind(KeyKind::interrupt)}, Do::quit},
    {"?", "? help", "this help.", {ch('?'), none(), none()}, Do::help},
    {"Up / Down", "Up/Dn node", "select the previous / next node.", {kind(KeyKind::up), kind(KeyKind::back_tab), none()}, Do::up},
    {"Down", "", "", {kind(KeyKind::down), kind(KeyKind::tab), none()}, Do::down},
    {"PgUp / PgDn", "", "page through the nodes.", {kind(KeyKind::page_up), none(), none()}, Do::page_up},
    {"PgDn", "", "", {kind(KeyKind::page_down), none(), none()}, Do::page_down},
    {"Home / End", "", "first / last node.", {kind(KeyKind::home), none(), none()}, Do::first},
    {"End", "", "", {kind(KeyKind::end), none(), none()}, Do::last},
    {"Enter", "Enter open", "open the selected node's own screen (its bars, trends, processes); Esc returns.",
     {kind(KeyKind::enter), none(), none()}, Do::open},
    {"n", "n nodes", "edit the node filter: names, gpu[01-04], gpu*, comma-separated; empty shows all.",
     {ch('n'), none(), none()}, Do::nodes},
    {"/", "/ find", "search PIDs, GPU indices, users, commands and jobs on every node.", {ch('/'), none(), none()},
     Do::search},
    {"s / S", "s/S sort", "next sort field / reverse the order of the process table.", {ch('s'), none(), none()}, Do::sort},
    {"S", "", "", {ch('S'), none(), none()}, Do::reverse},
    {"r / F5", "r refresh", "ask every node now.", {ch('r'), ch('R'), kind(KeyKind::refresh)}, Do::refresh},
    {"k", "", "refused: the processes of remote nodes are read-only here.", {ch('k'), none(), none()}, Do::kill},
}};

bool same(const Key& a, const Key& b) { return a.kind == b.kind && (a.kind != KeyKind::character || a.ch == b.ch); }

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
    if (result == EditResult::accepted) {
        if (state.search_editing) state.filter.search = state.draft.text;
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
    std::vector<std::string> lines;
    for (const auto& entry : kKeys)
        if (!entry.help.empty()) lines.push_back(std::string(entry.keys) + ": " + std::string(entry.help));
    for (const char* note : {"", "A node is ok, STALE (its last good data, with its age), unreachable or error.",
                             "Latency is the time of the node's last answer (microseconds under 1 ms).",
                             "A slow node is not asked again until it answers or times out (--timeout).",
                             "--user, --gpu, --pid, --sort and --reverse apply inside each node."})
        lines.emplace_back(note);
    return lines;
}

std::string cluster_footer(bool wide) {
    std::string footer;
    for (const auto& entry : kKeys) {
        if (entry.hint.empty() || (!wide && entry.action != Do::quit && entry.action != Do::help &&
                                   entry.action != Do::open && entry.action != Do::nodes))
            continue;
        footer += (footer.empty() ? "" : " ") + std::string(entry.hint);
    }
    return footer;
}

ClusterEffect handle_cluster_key(ClusterUiState& state, const Key& key, const cluster::ClusterSnapshot* cluster,
                                 int page, MonoTime now) {
    if (key.kind == KeyKind::resize || key.kind == KeyKind::redraw) return ClusterEffect::redraw;
    if (state.search_editing || state.node_editing) return edit_prompt(state, key, now);
    if (state.help) {
        if (key.kind == KeyKind::up) state.help_scroll = std::max(0, state.help_scroll - 1);
        else if (key.kind == KeyKind::down) ++state.help_scroll;
        else if (key.kind == KeyKind::escape || key.kind == KeyKind::enter || key.is('q') || key.is('?')) state.help = false;
        return ClusterEffect::redraw;
    }
    const auto entry = std::find_if(kKeys.begin(), kKeys.end(), [&](const ClusterKey& e) {
        return std::any_of(e.bindings.begin(), e.bindings.end(), [&](const Key& b) { return same(b, key); });
    });
    if (entry == kKeys.end()) return ClusterEffect::none;
    const int count = cluster ? static_cast<int>(shown_nodes(*cluster, state).size()) : 0;
    switch (entry->action) {
        case Do::quit: return ClusterEffect::quit;
        case Do::help: state.help = true; state.help_scroll = 0; break;
        case Do::up: --state.selected; break;
        case Do::down: ++state.selected; break;
        case Do::page_up: state.line_offset = std::max(0, state.line_offset - page); state.selected -= std::max(1, page / 3); break;
        case Do::page_down: state.line_offset += page; state.selected += std::max(1, page / 3); break;
        case Do::first: state.selected = 0; break;
        case Do::last: state.selected = count - 1; break;
        case Do::open: return count ? ClusterEffect::drill : ClusterEffect::none;
        case Do::nodes: state.node_editing = true; state.draft.text = state.nodes.text(); break;
        case Do::search: state.search_editing = true; state.draft.text = state.filter.search; break;
        case Do::sort: state.filter.sort = next_sort_field(state.filter.sort); break;
        case Do::reverse: state.filter.reverse = !state.filter.reverse; break;
        case Do::refresh: state.message.show("Refresh requested.", now); return ClusterEffect::refresh;
        case Do::kill: state.message.show("Remote processes are read-only: SIGTERM is refused in the cluster view.", now); break;
    }
    keep_selected_visible(state, cluster, page);
    return ClusterEffect::redraw;
}

}  // namespace musatop::tui
