// The ncurses adapter: opens the terminal, maps colours and keys, copies a Canvas
// to the screen, and restores the terminal when destroyed.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "musatop/tui/canvas.hpp"
#include "musatop/tui/keys.hpp"
#include "musatop/util/result.hpp"

namespace musatop::tui {

class CursesTerminal {
public:
    // Fails with a message (never exits) when TERM is unknown or the terminal unusable.
    // Terminfo is searched in TERMINFO, ~/.terminfo, TERMINFO_DIRS, then the folders
    // every distribution uses (kTerminfoDirs), wherever this binary was built.
    // With `want_mouse`, clicks and the wheel arrive as KeyKind::mouse: reporting
    // mode 1000 with SGR 1006 coordinates, decoded here whatever TERM says (tmux
    // and screen entries know only the old X10 form). Off again when destroyed.
    static Result<std::unique_ptr<CursesTerminal>> open(bool want_color, bool want_mouse = false);
    CursesTerminal(const CursesTerminal&) = delete;
    CursesTerminal& operator=(const CursesTerminal&) = delete;
    ~CursesTerminal();

    int width() const;
    int height() const;
    // Waits up to `timeout_ms` for one key.
    std::optional<Key> read_key(int timeout_ms);
    void draw(const Canvas& canvas);
    void repaint_everything();  // Ctrl-L
    // After the process was stopped and continued: the terminal modes the screen
    // needs (no echo, keys one by one, mouse reporting) set again, then a whole repaint.
    void resume();
    int palette_size() const { return palette_size_; }
    // Said once on the first screen (why it draws ASCII, say); empty for nothing.
    std::string startup_note;

private:
    CursesTerminal() = default;
    void init_colors(bool want_color);
    short pair_for(const Style& style) const;

    std::optional<Key> read_mouse_report();

    void* screen_ = nullptr;  // SCREEN*
    bool mouse_ = false;
    int palette_size_ = 0;  // gradient colours: 10, 3 or 0
    short unknown_pair_ = 0;
    short metric_pairs_[4] = {0, 0, 0, 0};  // cpu, ram, vram, util
};

// Where distributions keep terminfo: Debian /lib and /usr/share, Alpine /etc,
// older Unixes /usr/share/lib; searched when TERMINFO_DIRS does not say.
inline constexpr const char* kTerminfoDirs =
    "/etc/terminfo:/lib/terminfo:/usr/share/terminfo:/usr/lib/terminfo:/usr/share/lib/terminfo";

// True when the locale's character set is UTF-8 (else the screen falls back to ASCII).
bool locale_is_utf8();

}  // namespace musatop::tui
