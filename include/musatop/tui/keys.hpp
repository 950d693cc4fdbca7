// Keys as the controller sees them, independent of curses key codes.
#pragma once

#include <optional>
#include <string_view>

namespace musatop::tui {

// clang-format off
enum class KeyKind {
    character, up, down, left, right, page_up, page_down, home, end, enter, escape, backspace, tab, back_tab, refresh, resize,
    interrupt, redraw, mouse, function, other  // function: F1-F12 (ch holds the number; F5 is refresh)
};
// clang-format on

// What a mouse report (SGR 1006) says happened; modifiers are ignored.
enum class MouseAction { none, left_press, middle_press, right_press, release, wheel_up, wheel_down };

struct Key {
    KeyKind kind = KeyKind::other;
    char32_t ch = 0;                        // for KeyKind::character
    MouseAction mouse = MouseAction::none;  // for KeyKind::mouse
    int row = 0, column = 0;                // for KeyKind::mouse, from 0

    static Key character(char32_t c) { return Key{KeyKind::character, c}; }
    static Key function(int number) { return Key{KeyKind::function, static_cast<char32_t>(number)}; }
    bool is(char32_t c) const { return kind == KeyKind::character && ch == c; }
};

// The body of an SGR 1006 mouse report after "ESC [ <": "0;12;5M" (button,
// column and row from 1, M press / m release); nullopt when malformed.
std::optional<Key> parse_sgr_mouse(std::string_view body);

}  // namespace musatop::tui
