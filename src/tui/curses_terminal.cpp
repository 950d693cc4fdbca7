#include "musatop/tui/curses_terminal.hpp"

#include <langinfo.h>

#include <cstdio>
#include <cstdlib>
#include <cwchar>
#include <string>

#include <curses.h>

#include "musatop/output/sanitize.hpp"
#include "musatop/util/text.hpp"
#include "musatop/util/utf8.hpp"

namespace musatop::tui {
namespace {

// A key code of our own for the SGR mouse prefix, above every ncurses code.
constexpr int kSgrMouseKey = KEY_MAX + 1;
constexpr const char* kMouseOn = "\x1b[?1000h\x1b[?1006h";  // press/release + SGR coordinates
constexpr const char* kMouseOff = "\x1b[?1006l\x1b[?1000l";

std::optional<Key> map_key(int status, wint_t value) {
    if (status == ERR) return std::nullopt;
    if (status == KEY_CODE_YES) {
        switch (value) {
            case KEY_UP: return Key{KeyKind::up};
            case KEY_DOWN: return Key{KeyKind::down};
            case KEY_PPAGE: return Key{KeyKind::page_up};
            case KEY_NPAGE: return Key{KeyKind::page_down};
            case KEY_HOME: return Key{KeyKind::home};
            case KEY_LEFT: return Key{KeyKind::left};
            case KEY_RIGHT: return Key{KeyKind::right};
            case KEY_END: return Key{KeyKind::end};
            case KEY_ENTER: return Key{KeyKind::enter};
            case KEY_BACKSPACE: return Key{KeyKind::backspace};
            case KEY_BTAB: return Key{KeyKind::back_tab};
            case KEY_RESIZE: return Key{KeyKind::resize};
            default:
                if (value == static_cast<wint_t>(KEY_F(5))) return Key{KeyKind::refresh};
                for (int n = 1; n <= 12; ++n)  // htop's and nvtop's F1 help, F3 search, F6 sort, F9 kill, F10 quit
                    if (value == static_cast<wint_t>(KEY_F(n))) return Key::function(n);
                return Key{KeyKind::other};
        }
    }
    switch (value) {
        case L'\n':
        case L'\r': return Key{KeyKind::enter};
        case 27: return Key{KeyKind::escape};
        case 8:
        case 127: return Key{KeyKind::backspace};
        case L'\t': return Key{KeyKind::tab};
        case 3: return Key{KeyKind::interrupt};
        case 12: return Key{KeyKind::redraw};
        default: return Key::character(static_cast<char32_t>(value));
    }
}

attr_t attributes_of(const Style& style) {
    attr_t attrs = A_NORMAL;
    if (style.bold) attrs |= A_BOLD;
    if (style.dim) attrs |= A_DIM;
    if (style.reverse) attrs |= A_REVERSE;
    if (style.underline) attrs |= A_UNDERLINE;
    return attrs;
}

}  // namespace

bool locale_is_utf8() {
    std::string codeset = ::nl_langinfo(CODESET);
    std::string folded;
    for (char c : codeset)
        if (c != '-') folded += text::fold(c);
    return folded == "utf8";
}

Result<std::unique_ptr<CursesTerminal>> CursesTerminal::open(bool want_color, bool want_mouse) {
    const char* term = std::getenv("TERM");
    if (!term || !*term) return Error{"TERM is not set; use --once or --json without a terminal"};
    std::unique_ptr<CursesTerminal> terminal(new CursesTerminal());
    // ncurses searches TERMINFO and ~/.terminfo itself, then TERMINFO_DIRS, else the
    // folders it was built with (this build's, not the host's distribution's).
    const char* dirs = std::getenv("TERMINFO_DIRS");
    if (!dirs || !*dirs) ::setenv("TERMINFO_DIRS", kTerminfoDirs, 1);
    SCREEN* screen = ::newterm(nullptr, stdout, stdin);
    if (!screen) {
        const char* own = std::getenv("TERMINFO");
        return Error{std::string("cannot drive terminal type '") + sanitize(term) + "': no terminfo entry for it in " +
                     (own && *own ? sanitize(own) + ", " : std::string()) + "~/.terminfo, " +
                     sanitize(std::getenv("TERMINFO_DIRS")) + "; set TERM to a known type, or use --once or --json"};
    }
    terminal->screen_ = screen;
    ::set_term(screen);
    // A terminal without cursor addressing (TERM=dumb, a printer) would get garbage.
    const char* cursor_address = ::tigetstr(const_cast<char*>("cup"));
    if (cursor_address == nullptr || cursor_address == reinterpret_cast<char*>(-1))
        return Error{std::string("terminal type '") + term +
                     "' cannot position the cursor; use a full-screen terminal, or --once or --json"};
    ::cbreak();
    ::noecho();
    ::nonl();
    ::keypad(stdscr, TRUE);
    ::set_escdelay(25);
    // Home/End as screen, tmux and the Linux console send them, whatever TERM says.
    ::define_key("\x1b[1~", KEY_HOME);
    ::define_key("\x1b[4~", KEY_END);
    ::define_key("\x1b[H", KEY_HOME);
    ::define_key("\x1b[F", KEY_END);
    ::curs_set(0);
    terminal->init_colors(want_color);
    if (want_mouse) {
        ::define_key("\x1b[<", kSgrMouseKey);  // replaces a terminfo kmous of the same prefix
        std::fputs(kMouseOn, stdout);
        std::fflush(stdout);
        terminal->mouse_ = true;
    }
    return terminal;
}

CursesTerminal::~CursesTerminal() {
    if (!screen_) return;
    if (mouse_) {
        std::fputs(kMouseOff, stdout);
        std::fflush(stdout);
    }
    ::endwin();
    ::delscreen(static_cast<SCREEN*>(screen_));
}

void CursesTerminal::init_colors(bool want_color) {
    if (!want_color || !::has_colors() || ::start_color() == ERR) return;
    const short background = ::use_default_colors() == OK ? -1 : COLOR_BLACK;
    short next = 1;
    const auto add_pair = [&](short foreground) -> short {
        if (next >= COLOR_PAIRS) return 0;
        return ::init_pair(next, foreground, background) == OK ? next++ : 0;
    };
    if (COLORS >= 256 && COLOR_PAIRS >= 16) {
        for (short c : {40, 76, 112, 148, 184, 220, 214, 208, 202, 196}) add_pair(c);
        palette_size_ = 10;
        unknown_pair_ = add_pair(244);
    } else if (COLORS >= 8 && COLOR_PAIRS >= 8) {
        for (short c : {COLOR_GREEN, COLOR_YELLOW, COLOR_RED}) add_pair(c);
        palette_size_ = 3;
        unknown_pair_ = add_pair(COLOR_WHITE);
    } else {
        return;
    }
    const short metric_colors[4] = {COLOR_CYAN, COLOR_MAGENTA, COLOR_YELLOW, COLOR_GREEN};
    for (int i = 0; i < 4; ++i) metric_pairs_[i] = add_pair(metric_colors[i]);
}

short CursesTerminal::pair_for(const Style& style) const {
    switch (style.color) {
        case Color::none: return 0;
        case Color::unknown: return unknown_pair_;
        case Color::cpu: return metric_pairs_[0];
        case Color::ram: return metric_pairs_[1];
        case Color::vram: return metric_pairs_[2];
        case Color::util: return metric_pairs_[3];
        case Color::gradient:
            // The canvas uses a 10-step gradient; fold it onto this terminal's palette.
            return palette_size_ ? static_cast<short>(1 + style.gradient * palette_size_ / 10) : 0;
    }
    return 0;
}

int CursesTerminal::width() const { return COLS; }
int CursesTerminal::height() const { return LINES; }

std::optional<Key> CursesTerminal::read_key(int timeout_ms) {
    timeout(timeout_ms);
    wint_t value = 0;
    const int status = get_wch(&value);
    if (mouse_ && status == KEY_CODE_YES && value == static_cast<wint_t>(kSgrMouseKey)) return read_mouse_report();
    return map_key(status, value);
}

// The rest of "ESC [ < b ; x ; y M": already buffered on a local terminal, a few
// milliseconds behind over SSH. A report cut short is dropped, never typed as keys.
std::optional<Key> CursesTerminal::read_mouse_report() {
    std::string body;
    while (body.size() < 24) {
        timeout(50);
        wint_t value = 0;
        const int status = get_wch(&value);
        if (status != OK) break;
        body.push_back(static_cast<char>(value));
        if (value == L'M' || value == L'm') return parse_sgr_mouse(body).value_or(Key{KeyKind::other});
    }
    return Key{KeyKind::other};
}

void CursesTerminal::draw(const Canvas& canvas) {
    erase();
    const int rows = std::min(canvas.height(), LINES);
    const int cols = std::min(canvas.width(), COLS) - 1;  // never the last column
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            const Cell& cell = canvas.at(r, c);
            if (cell.glyph.empty()) continue;  // right half of a wide glyph
            std::wstring wide;
            for (char32_t cp : utf8::decode(cell.glyph)) wide.push_back(static_cast<wchar_t>(cp));
            cchar_t out;
            ::setcchar(&out, wide.c_str(), attributes_of(cell.style), pair_for(cell.style), nullptr);
            mvadd_wch(r, c, &out);  // a macro in ncurses
        }
    }
    refresh();
}

void CursesTerminal::repaint_everything() { ::clearok(curscr, TRUE); }

void CursesTerminal::resume() {
    ::reset_prog_mode();  // the modes saved by initscr/cbreak/noecho, whatever the shell set meanwhile
    if (mouse_) {
        std::fputs(kMouseOn, stdout);
        std::fflush(stdout);
    }
    repaint_everything();
}

}  // namespace musatop::tui
