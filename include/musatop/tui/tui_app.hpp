// The interactive screen: starts the sampler, runs the ncurses loop, restores the
// terminal on every way out.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "musatop/model/source.hpp"
#include "musatop/model/view_filter.hpp"
#include "musatop/replay/replay_control.hpp"
#include "musatop/sampler/frame_feed.hpp"
#include "musatop/util/clock.hpp"

namespace musatop::tui {

// What the user can change on the screen and the program remembers (state.toml).
struct ScreenChoices {
    SortField sort = SortField::gpu_memory;
    bool reverse = false;
    bool compact = false;
    bool trends = true;
    bool operator==(const ScreenChoices&) const = default;
};

// What the screen needs from the command line; the cli layer fills it in.
struct TuiSettings {
    std::chrono::steady_clock::duration interval = std::chrono::seconds(1);
    ViewFilter filter;
    bool ascii = false;
    bool color = true;
    std::string login_name;  // for "my processes"
    // Called on the sampler's thread with every round's snapshot, whatever the
    // screen draws (`--record`: a stalled terminal loses no frame, none is written
    // twice); an error text stops the calls and is shown on the status line, the
    // screen keeps running.
    std::function<std::optional<std::string>(const Snapshot&)> on_snapshot;
    std::string badge;     // shown after the title while on_snapshot runs ("REC day.rec")
    bool compact = false;  // the c and h toggles' first state
    bool trends = true;
    bool mouse = true;  // clicks and the wheel (--no-mouse turns them off)
    // A node's screen opened from the cluster view: Esc returns to it.
    bool back_on_escape = false;
    // Called after a key changed sort, direction, compact or trends; an error text
    // is shown on the status line.
    std::function<std::optional<std::string>(const ScreenChoices&)> on_choices;
};

// The live screen: a sampler over `source`.
int run_tui(const TuiSettings& settings, std::unique_ptr<Source> source);

// The screen over any feed of frames (the sampler, a replay).
int run_screen(const TuiSettings& settings, FrameFeed& feed, replay::ReplayControl* replay = nullptr);

class CursesTerminal;

// The screen on a terminal another screen already holds (the cluster view's
// drill-down); returns on q, Ctrl-C or, with back_on_escape, Esc.
void run_screen_on(const TuiSettings& settings, FrameFeed& feed, CursesTerminal& terminal);

// Opens the terminal (restored on every way out), runs `screen` on it; the exit
// status: 0, 1 with a message when the terminal cannot be used or the screen
// failed, 128 + the signal for SIGTERM, SIGHUP and SIGQUIT.
int run_on_terminal(bool color, bool mouse, const std::function<void(CursesTerminal&)>& screen);

// Sleeps until a key, the fd's next publication (an eventfd, emptied) or `until`.
void wait_for_key_or_publication(int publication_fd, MonoTime until);

}  // namespace musatop::tui
