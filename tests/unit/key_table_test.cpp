// The key table is the only place keys are defined: dispatch, footer and help all
// come from it, and every entry must be reachable and documented.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <tuple>

#include "musatop/tui/controller.hpp"
#include "musatop/tui/dialogs/modal.hpp"
#include "musatop/tui/key_table.hpp"

using namespace musatop;
using namespace musatop::tui;

TEST(KeyTable, EveryBoundKeyHasOneActionAndEveryEntryIsDocumented) {
    std::set<std::tuple<bool, int, char32_t>> seen;  // (replay, key): one action each
    for (const auto& entry : key_table()) {
        EXPECT_FALSE(entry.keys.empty());
        EXPECT_FALSE(entry.help.empty()) << entry.keys;
        for (const auto& binding : entry.bindings) {
            if (binding.action == Action::none) continue;
            for (bool replay : {false, true}) {
                const bool applies = entry.scope == Scope::any || (entry.scope == Scope::replay) == replay;
                if (!applies) continue;
                EXPECT_TRUE(seen.insert({replay, static_cast<int>(binding.key.kind), binding.key.ch}).second)
                    << "bound twice: " << entry.keys;
                EXPECT_EQ(action_for(binding.key, replay), binding.action) << entry.keys;
            }
        }
    }
    EXPECT_EQ(action_for(Key::character(' ')), Action::none);  // replay keys do nothing live
    EXPECT_EQ(action_for(Key{KeyKind::home, 0}, true), Action::replay_start);
    EXPECT_EQ(action_for(Key::character('x')), Action::none);
}

TEST(KeyTable, FooterHintsNameKeysThatWork) {
    // Each footer hint starts with the key it names; that key must dispatch.
    const std::map<std::string, Key> named = {{"q", Key::character('q')},
                                              {"?", Key::character('?')},
                                              {"g/G", Key::character('g')},
                                              {"h", Key::character('h')},
                                              {"s/S", Key::character('s')},
                                              {"/", Key::character('/')},
                                              {"r", Key::character('r')},
                                              {"k", Key::character('k')},
                                              {"Enter", Key{KeyKind::enter, 0}},
                                              {"Space", Key::character(' ')},
                                              {"Left/Right", Key{KeyKind::left, 0}},
                                              {"[/]", Key::character('[')},
                                              {"t", Key::character('t')}};
    for (const auto& entry : key_table()) {
        if (entry.hint.empty()) continue;
        const std::string first(entry.hint.substr(0, entry.hint.find(' ')));
        ASSERT_TRUE(named.count(first)) << entry.hint;
        EXPECT_NE(action_for(named.at(first), entry.scope == Scope::replay), Action::none) << entry.hint;
    }
    EXPECT_EQ(footer_text(true), "q quit ? help g/G GPU h trend s/S sort / find r refresh k term Enter info");
    EXPECT_EQ(footer_text(false), "q quit ? help g/G GPU h trend / find k term Enter info");
    EXPECT_EQ(footer_text(true, true),
              "q quit Space pause Left/Right step [/] speed t time ? help g/G GPU h trend s/S sort / find Enter info");
}

TEST(KeyTable, HelpDialogListsEveryEntry) {
    const auto lines = help_lines();
    for (const auto& entry : key_table()) {
        const std::string prefix = std::string(entry.keys) + ": ";
        bool found = false;
        for (const auto& line : lines) found = found || line.rfind(prefix, 0) == 0;
        EXPECT_TRUE(found) << entry.keys;
    }
}

TEST(KeyTable, EveryActionChangesSomethingOrHasAnEffect) {
    // A bound action that neither changes the state nor returns an effect would be
    // a key documented as working that does nothing.
    Snapshot snapshot;
    GpuProcess p;
    p.pid = 4242;
    p.start_ticks = 1;
    p.status = ProcessStatus::ok;
    snapshot.processes = {p, p, p};
    snapshot.processes[1].pid = 4243;
    snapshot.processes[2].pid = 4244;
    Device d;
    d.uuid = "u0";
    snapshot.devices = {d};
    ScreenContext context;
    context.unfiltered = &snapshot;
    context.processes = snapshot.processes;
    context.devices = snapshot.devices;
    context.process_page_size = 1;
    context.device_page_size = 1;
    for (const auto& entry : key_table()) {
        context.replay = entry.scope == Scope::replay;
        for (const auto& binding : entry.bindings) {
            if (binding.action == Action::none) continue;
            UiState state;
            state.selection = 1;
            state.device_offset = 1;
            const UiState before = state;
            const Effect effect = handle_key(state, binding.key, context);
            bool changed = state.selection != before.selection || state.device_offset != before.device_offset ||
                           state.modal != before.modal || state.search_editing != before.search_editing ||
                           state.filter.sort != before.filter.sort || state.filter.reverse != before.filter.reverse ||
                           state.current_user_only != before.current_user_only || state.compact != before.compact ||
                           state.trends_visible != before.trends_visible || state.trend_target != before.trend_target ||
                           !state.message.text.empty();
            changed = changed || state.time_editing || effect == Effect::replay;
            EXPECT_TRUE(changed || effect == Effect::quit || effect == Effect::refresh || effect == Effect::redraw)
                << entry.keys;
            if (binding.action != Action::redraw) {
                EXPECT_TRUE(changed || effect == Effect::quit) << entry.keys;
            }
        }
    }
}

// htop's and nvtop's function keys do what their letters do (F9 opens the same
// confirmation as k), on live data and in a replay alike.
TEST(KeyTable, FunctionKeysAreTheLetterKeysOfHtopAndNvtop) {
    EXPECT_EQ(action_for(Key::function(1)), Action::help);
    EXPECT_EQ(action_for(Key::function(3)), Action::search);
    EXPECT_EQ(action_for(Key::function(6)), Action::sort_next);
    EXPECT_EQ(action_for(Key::function(9)), Action::terminate);
    EXPECT_EQ(action_for(Key::function(9), true), Action::terminate);  // refused there, with the reason
    EXPECT_EQ(action_for(Key::function(10)), Action::quit);
    EXPECT_EQ(action_for(Key::function(2)), Action::none);
    EXPECT_EQ(action_for(Key::character(10)), Action::none);  // a character 10 is not F10
}

// The help dialog lists the keys of the screen it is on first: on live data the
// replay keys come last, in a replay first.
TEST(KeyTable, HelpListsThisScreensKeysFirst) {
    const auto live = help_lines(false);
    const auto replay = help_lines(true);
    ASSERT_FALSE(live.empty());
    EXPECT_EQ(live.front().rfind("q: ", 0), 0u) << live.front();
    std::size_t first_replay_line = live.size();
    for (std::size_t i = 0; i < live.size(); ++i)
        if (live[i].find(": replay:") != std::string::npos) first_replay_line = std::min(first_replay_line, i);
    for (std::size_t i = first_replay_line; i < live.size() && !live[i].empty(); ++i)
        EXPECT_NE(live[i].find("replay"), std::string::npos) << live[i];  // after the first, only replay keys
    EXPECT_NE(replay[1].find(": replay:"), std::string::npos) << replay[1];
}
