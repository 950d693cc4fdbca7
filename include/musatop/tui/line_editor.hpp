// The one line editor of the screens: the search prompt, the time prompt of
// replay, the cluster view's search and node filter. Pure: a key in, what it did out.
#pragma once

#include <string>

#include "musatop/tui/keys.hpp"

namespace musatop::tui {

enum class EditResult { edited, accepted, cancelled, ignored };

struct LineEditor {
    std::string text;         // UTF-8
    bool ascii_only = false;  // a time is typed in ASCII

    // Printable characters are added, Backspace takes the last character (a whole
    // code point), Ctrl-U clears, Ctrl-W takes the last word (as in a shell), Enter
    // accepts, Escape cancels; other control characters are ignored.
    EditResult apply(const Key& key);
};

}  // namespace musatop::tui
