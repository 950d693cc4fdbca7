// The model of a screen's key table, for both screens: one row per line of the
// help dialog, its keys' actions, its words in the footer. Dispatch, footer and
// help are read from the same rows, so a key cannot work without being
// documented, or be documented without working.
#pragma once

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "musatop/tui/keys.hpp"

namespace musatop::tui {

// Where a key works: always, on live data only, or in a replay only.
enum class Scope { any, live, replay };

template <typename Action>
struct BindingOf {
    Key key;
    Action action = Action::none;
};

template <typename Action>
struct KeyRow {
    std::string_view keys;                        // as the help dialog names them: "g / G"
    std::string_view hint;                        // the footer's words ("g/G GPU"); empty: not in the footer
    bool in_short_footer = false;                 // kept when the footer is short (narrow screens)
    std::string_view help;                        // what the keys do; empty: the row above says it
    std::array<BindingOf<Action>, 4> bindings{};  // unused slots have Action::none
    Scope scope = Scope::any;
};

constexpr Key ch(char32_t c) { return Key{KeyKind::character, c}; }
constexpr Key kind(KeyKind k) { return Key{k, 0}; }
constexpr Key fn(int number) { return Key{KeyKind::function, static_cast<char32_t>(number)}; }

template <typename Action>
bool in_scope(const KeyRow<Action>& row, bool replay) {
    return row.scope == Scope::any || (row.scope == Scope::replay) == replay;
}

template <typename Action>
Action action_in(std::span<const KeyRow<Action>> rows, const Key& key, bool replay = false) {
    for (const auto& row : rows) {
        if (!in_scope(row, replay)) continue;
        for (const auto& binding : row.bindings)
            if (binding.action != Action::none && binding.key.kind == key.kind &&
                ((key.kind != KeyKind::character && key.kind != KeyKind::function) || binding.key.ch == key.ch))
                return binding.action;
    }
    return Action::none;
}

// "q quit ? help ..." in row order; the short one keeps the rows marked so.
template <typename Action>
std::string footer_of(std::span<const KeyRow<Action>> rows, bool wide, bool replay = false) {
    std::string footer;
    for (const auto& row : rows) {
        if (row.hint.empty() || (!wide && !row.in_short_footer) || !in_scope(row, replay)) continue;
        if (!footer.empty()) footer += ' ';
        footer += row.hint;
    }
    return footer;
}

// "keys: help" for every row that has help: the rows that work on this screen
// first (live data or a replay), then the others, each in row order.
template <typename Action>
std::vector<std::string> help_of(std::span<const KeyRow<Action>> rows, bool replay = false) {
    std::vector<std::string> lines;
    for (const bool here : {true, false})
        for (const auto& row : rows)
            if (!row.help.empty() && in_scope(row, replay) == here)
                lines.push_back(std::string(row.keys) + ": " + std::string(row.help));
    return lines;
}

}  // namespace musatop::tui
