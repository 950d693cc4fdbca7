// The one event loop of the screens (the single host's and the cluster view):
// stop signals, a repaint after SIGCONT, new data, a redraw when something changed
// (data, a key, the size, the second, what a screen adds), then sleep in poll()
// until a key, a publication or the screen's next change. No polling timer.
#pragma once

#include "musatop/tui/curses_terminal.hpp"
#include "musatop/tui/keys.hpp"
#include "musatop/util/clock.hpp"

namespace musatop::tui {

class ScreenLoop {
public:
    explicit ScreenLoop(CursesTerminal& terminal) : terminal_(terminal) {}
    virtual ~ScreenLoop() = default;
    ScreenLoop(const ScreenLoop&) = delete;
    ScreenLoop& operator=(const ScreenLoop&) = delete;

    void run();

protected:
    virtual bool take_new_data(MonoTime now) = 0;                      // true when new data was picked up
    virtual bool wants_draw(MonoTime /*now*/) const { return false; }  // beyond data, keys, size, second
    virtual void draw(MonoTime now, bool changed) = 0;                 // changed: new data or a key since the last draw
    virtual MonoTime next_change(MonoTime now) const;                  // default: the next whole second
    virtual int publication_fd() const = 0;
    virtual bool on_key(const Key& key) = 0;  // false: leave the screen

    CursesTerminal& terminal_;
};

}  // namespace musatop::tui
