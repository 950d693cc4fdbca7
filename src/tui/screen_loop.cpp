#include "musatop/tui/screen_loop.hpp"

#include <cstdint>

#include "musatop/tui/terminal_guard.hpp"
#include "musatop/tui/tui_app.hpp"

namespace musatop::tui {

MonoTime ScreenLoop::next_change(MonoTime now) const {
    return MonoTime(std::chrono::floor<std::chrono::seconds>(now.time_since_epoch()) + std::chrono::seconds(1));
}

void ScreenLoop::run() {
    bool dirty = true;
    int drawn_width = -1, drawn_height = -1;
    std::int64_t drawn_second = -1;
    for (;;) {
        if (TerminalGuard::quit_requested()) return;
        if (TerminalGuard::take_resumed()) {  // after a stop from outside: modes set again, all redrawn
            terminal_.resume();
            dirty = true;
        }
        const MonoTime now = mono_now();
        if (take_new_data(now)) dirty = true;
        const std::int64_t second = whole_seconds(now);
        const bool resized = terminal_.width() != drawn_width || terminal_.height() != drawn_height;
        if (dirty || resized || second != drawn_second || wants_draw(now)) {
            draw(now, dirty);
            drawn_width = terminal_.width();
            drawn_height = terminal_.height();
            drawn_second = second;
            dirty = false;
        }
        // Keys ncurses already holds come first; otherwise sleep until a key, new
        // data or the next change.
        auto key = terminal_.read_key(0);
        if (!key) {
            wait_for_key_or_publication(publication_fd(), next_change(mono_now()));
            key = terminal_.read_key(0);
        }
        if (!key) continue;
        if (!on_key(*key)) return;
        if (key->kind == KeyKind::redraw) terminal_.repaint_everything();
        dirty = true;
    }
}

}  // namespace musatop::tui
