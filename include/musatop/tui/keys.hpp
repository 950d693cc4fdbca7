// Keys as the controller sees them, independent of curses key codes.
#pragma once

namespace musatop::tui {

enum class KeyKind {
    character, up, down, left, right, page_up, page_down, home, end, enter, escape, backspace, tab, back_tab, refresh, resize,
    interrupt, redraw, other
};

struct Key {
    KeyKind kind = KeyKind::other;
    char32_t ch = 0;  // for KeyKind::character

    static Key character(char32_t c) { return Key{KeyKind::character, c}; }
    bool is(char32_t c) const { return kind == KeyKind::character && ch == c; }
};

}  // namespace musatop::tui
