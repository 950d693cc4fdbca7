#include "musatop/tui/controller.hpp"

#include <algorithm>
#include <limits>

#include "musatop/model/history.hpp"
#include "musatop/model/process_identity.hpp"
#include "musatop/tui/key_table.hpp"
#include "musatop/tui/screens/process_columns.hpp"

namespace musatop::tui {
namespace {

int process_count(const ScreenContext& c) { return static_cast<int>(c.processes.size()); }

void select_row(UiState& state, const ScreenContext& context, int index) {
    const int count = process_count(context);
    state.selection = count == 0 ? 0 : std::clamp(index, 0, count - 1);
    state.selected = count == 0 ? std::nullopt : std::optional(identity_of(context.processes[state.selection]));
}

const GpuProcess* selected_process(const UiState& state, const ScreenContext& context) {
    if (context.processes.empty()) return nullptr;
    return &context.processes[static_cast<std::size_t>(std::clamp(state.selection, 0, process_count(context) - 1))];
}

void cycle_trend(UiState& state, const ScreenContext& context, int step) {
    const auto targets = trend_targets(context.devices);
    auto it = std::find(targets.begin(), targets.end(), state.trend_target);
    const auto n = static_cast<long>(targets.size());
    const long position = it == targets.end() ? 0 : (it - targets.begin());
    state.trend_target = targets[static_cast<std::size_t>(((position + step) % n + n) % n)];
}

// The search filters as it is typed; Enter keeps it, Esc puts back what was there.
Effect handle_search_key(UiState& state, const Key& key) {
    const EditResult result = state.search_draft.apply(key);
    if (result == EditResult::ignored) return Effect::none;
    state.filter.search = result == EditResult::cancelled ? state.search_before : state.search_draft.text;
    if (result != EditResult::edited) state.search_editing = false;
    state.selection = 0;
    state.process_offset = 0;
    state.selected.reset();
    return Effect::redraw;
}

Effect handle_time_key(UiState& state, const Key& key) {
    switch (state.time_draft.apply(key)) {
        case EditResult::accepted:
            state.time_editing = false;
            state.replay_command = replay::ReplayCommand::jump;
            state.replay_argument = state.time_draft.text;
            return Effect::replay;
        case EditResult::cancelled: state.time_editing = false; return Effect::redraw;
        case EditResult::edited: return Effect::redraw;
        case EditResult::ignored: return Effect::none;
    }
    return Effect::none;
}

Effect replay(UiState& state, replay::ReplayCommand command) {
    state.replay_command = command;
    state.replay_argument.clear();
    return Effect::replay;
}

Effect handle_modal_key(UiState& state, const Key& key, const ScreenContext& context) {
    switch (key.kind) {
        case KeyKind::up: state.modal_scroll = std::max(0, state.modal_scroll - 1); return Effect::redraw;
        case KeyKind::down: ++state.modal_scroll; return Effect::redraw;
        case KeyKind::page_up:
            state.modal_scroll = std::max(0, state.modal_scroll - context.modal_page_size);
            return Effect::redraw;
        case KeyKind::page_down: state.modal_scroll += context.modal_page_size; return Effect::redraw;
        case KeyKind::home: state.modal_scroll = 0; return Effect::redraw;
        case KeyKind::end:
            state.modal_scroll = std::numeric_limits<int>::max() / 2;
            return Effect::redraw;  // clamped when drawn
        default: break;
    }
    const bool closes = key.kind == KeyKind::enter || key.kind == KeyKind::escape || key.is('q') || key.is('Q');
    if (state.modal == Modal::confirm) {
        if (key.is('y') || key.is('Y')) return Effect::confirm_termination;
        if (closes || key.is('n') || key.is('N')) {
            state.modal = Modal::none;
            state.message.show("Termination cancelled.", context.now);
        }
        return Effect::redraw;
    }
    if (closes || key.is('?')) state.modal = Modal::none;
    return Effect::redraw;
}

void open_modal(UiState& state, Modal modal, std::optional<GpuProcess> process = std::nullopt) {
    state.modal = modal;
    state.modal_scroll = 0;
    state.modal_process = std::move(process);
}

// A header cell sorts by its field; the same cell again reverses the order.
void sort_by_header(UiState& state, const Key& key, const ScreenRegions& r) {
    const auto field = sort_field_at(key.column, r.columns);
    if (!field) return;
    state.filter.reverse = *field == state.filter.sort ? !state.filter.reverse : false;
    state.filter.sort = *field;
}

void click_process(UiState& state, const Key& key, const ScreenContext& c) {
    const int index = state.process_offset + key.row - c.regions.process_top;
    if (index >= process_count(c)) return;
    const bool twice = index == state.last_click_index && c.now - state.last_click_at <= kDoubleClick;
    select_row(state, c, index);
    state.last_click_index = twice ? -1 : index;  // a third press starts over
    state.last_click_at = c.now;
    if (twice) open_modal(state, Modal::details, c.processes[static_cast<std::size_t>(index)]);
}

Effect handle_mouse(UiState& state, const Key& key, const ScreenContext& c) {
    const ScreenRegions& r = c.regions;
    const int step = key.mouse == MouseAction::wheel_up ? -1 : 1;
    const bool wheel = key.mouse == MouseAction::wheel_up || key.mouse == MouseAction::wheel_down;
    if (state.modal != Modal::none) {
        if (!wheel) return Effect::none;
        state.modal_scroll = std::max(0, state.modal_scroll + 3 * step);
        return Effect::redraw;
    }
    const bool on_devices = key.row >= r.device_top && key.row < r.device_top + r.device_rows;
    const bool on_processes = key.row >= r.process_top && key.row < r.process_top + c.process_page_size;
    if (wheel && on_devices) {
        state.device_offset = std::max(0, state.device_offset + step);
    } else if (wheel) {
        select_row(state, c, state.selection + 3 * step);
    } else if (key.mouse != MouseAction::left_press) {
        return Effect::none;
    } else if (key.row == r.process_header) {
        sort_by_header(state, key, r);
    } else if (on_processes) {
        click_process(state, key, c);
    } else if (on_devices) {
        const int index = r.device_offset + key.row - r.device_top;
        if (index < static_cast<int>(c.devices.size()))
            state.trend_target = trend_identity(c.devices[static_cast<std::size_t>(index)]);
    } else {
        return Effect::none;
    }
    clamp_scroll(state, c);
    return Effect::redraw;
}

}  // namespace

std::string trend_identity(const Device& device) {
    const auto key = gpu_history_key(device);
    return key ? *key : "index:" + std::to_string(device.index);
}

std::vector<std::optional<std::string>> trend_targets(const std::vector<Device>& visible) {
    std::vector<std::optional<std::string>> targets = {std::nullopt};
    for (const auto& device : visible) targets.emplace_back(trend_identity(device));
    return targets;
}

void clamp_scroll(UiState& state, const ScreenContext& context) {
    const int count = process_count(context);
    state.selection = count == 0 ? 0 : std::clamp(state.selection, 0, count - 1);
    const int page = std::max(1, context.process_page_size);
    if (state.selection < state.process_offset) state.process_offset = state.selection;
    if (state.selection >= state.process_offset + page) state.process_offset = state.selection - page + 1;
    state.process_offset = std::clamp(state.process_offset, 0, std::max(0, count - page));
}

void on_new_data(UiState& state, const ScreenContext& context) {
    if (state.selected) {
        for (int i = 0; i < process_count(context); ++i)
            if (identity_of(context.processes[static_cast<std::size_t>(i)]) == *state.selected) state.selection = i;
    }
    select_row(state, context, state.selection);
    const auto targets = trend_targets(context.devices);
    if (std::find(targets.begin(), targets.end(), state.trend_target) == targets.end()) state.trend_target.reset();
    if (state.modal == Modal::confirm &&
        (!state.modal_process || !target_is_current(*state.modal_process, context.unfiltered, context.provenance))) {
        state.modal = Modal::none;
        state.message.show("Termination cancelled: process changed or process data is stale.", context.now);
    }
}

Effect handle_key(UiState& state, const Key& key, const ScreenContext& context) {
    if (key.kind == KeyKind::interrupt) return Effect::quit;
    if (key.kind == KeyKind::resize) return Effect::redraw;
    if (key.kind == KeyKind::redraw) return Effect::redraw;
    if (state.search_editing) return handle_search_key(state, key);
    if (state.time_editing) return handle_time_key(state, key);
    if (key.kind == KeyKind::mouse) return handle_mouse(state, key, context);
    if (state.modal != Modal::none) return handle_modal_key(state, key, context);

    switch (action_for(key, context.replay)) {
        case Action::none: return Effect::none;
        case Action::quit: return Effect::quit;
        case Action::redraw: return Effect::redraw;
        case Action::help: open_modal(state, Modal::help); break;
        case Action::select_previous: select_row(state, context, state.selection - 1); break;
        case Action::select_next: select_row(state, context, state.selection + 1); break;
        case Action::select_first: select_row(state, context, 0); break;
        case Action::select_last: select_row(state, context, process_count(context) - 1); break;
        case Action::gpus_page_up:
            state.device_offset = std::max(0, state.device_offset - context.device_page_size);
            break;
        case Action::gpus_page_down: state.device_offset += context.device_page_size; break;
        case Action::trend_next: cycle_trend(state, context, 1); break;
        case Action::trend_previous: cycle_trend(state, context, -1); break;
        case Action::toggle_trends: state.trends_visible = !state.trends_visible; break;
        case Action::sort_next:
            state.filter.sort = next_sort_field(state.filter.sort, !state.compact, context.regions.columns.gpu_util);
            break;
        case Action::sort_reverse: state.filter.reverse = !state.filter.reverse; break;
        case Action::search:
            state.search_editing = true;
            state.search_draft.text = state.filter.search;
            state.search_before = state.filter.search;
            break;
        case Action::replay_pause: return replay(state, replay::ReplayCommand::toggle_pause);
        case Action::replay_back: return replay(state, replay::ReplayCommand::step_back);
        case Action::replay_forward: return replay(state, replay::ReplayCommand::step_forward);
        case Action::replay_slower: return replay(state, replay::ReplayCommand::slower);
        case Action::replay_faster: return replay(state, replay::ReplayCommand::faster);
        case Action::replay_start: return replay(state, replay::ReplayCommand::to_start);
        case Action::replay_end: return replay(state, replay::ReplayCommand::to_end);
        case Action::replay_jump:
            state.time_editing = true;
            state.time_draft.text.clear();
            break;
        case Action::my_processes: state.current_user_only = !state.current_user_only; break;
        case Action::compact: state.compact = !state.compact; break;
        case Action::refresh: state.message.show("Refresh requested.", context.now); return Effect::refresh;
        case Action::details:
            if (const GpuProcess* p = selected_process(state, context)) {
                open_modal(state, Modal::details, *p);
            } else {
                state.message.show("No process selected.", context.now);
            }
            break;
        case Action::gpu_details:
            open_modal(state, Modal::gpu_details);
            state.gpu_details_target = state.trend_target;
            break;
        case Action::terminate: {
            const GpuProcess* p = selected_process(state, context);
            if (!p) {
                state.message.show("No process selected.", context.now);
            } else if (context.provenance == Provenance::remote) {
                state.message.show("Remote node: read-only; SIGTERM is refused in the cluster view.", context.now);
            } else if (context.unfiltered && context.unfiltered->is_demo()) {
                state.message.show("Demo data: termination is disabled.", context.now);
            } else if (context.provenance == Provenance::replayed) {
                state.message.show("Replayed data: these are not live processes; termination is disabled.",
                                   context.now);
            } else if (!target_is_current(*p, context.unfiltered, context.provenance)) {
                state.message.show("Cannot terminate: stale or unverified process data.", context.now);
            } else {
                open_modal(state, Modal::confirm, *p);
            }
            break;
        }
    }
    clamp_scroll(state, context);
    return Effect::redraw;
}

}  // namespace musatop::tui
