#include "musatop/tui/tui_app.hpp"

#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>

#include <clocale>
#include <cmath>
#include <cstdlib>
#include <iostream>

#include "musatop/collection/procfs/process_enricher.hpp"
#include "musatop/model/view_filter.hpp"
#include "musatop/sampler/sampler.hpp"
#include "musatop/tui/controller.hpp"
#include "musatop/tui/curses_terminal.hpp"
#include "musatop/tui/screens/main_screen.hpp"
#include "musatop/tui/terminal_guard.hpp"
#include "musatop/tui/termination.hpp"

namespace musatop::tui {
namespace {

double monotonic_now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string login_name() {
    for (const char* variable : {"LOGNAME", "USER", "LNAME", "USERNAME"})
        if (const char* value = std::getenv(variable); value && *value) return value;
    return procfs::username_for_uid(::getuid());
}

// The interactive loop. Draws only when something changed: new data, a new second
// for the trends, a key, a resize, or a message that expired.
class TuiLoop {
public:
    TuiLoop(const cli::Options& options, Sampler& sampler, CursesTerminal& terminal)
        : sampler_(sampler), terminal_(terminal), ascii_(options.ascii || !locale_is_utf8()) {
        state_.filter = options.filter;
        state_.login_name = login_name();
    }

    void run() {
        bool dirty = true;
        for (;;) {
            if (TerminalGuard::quit_requested()) return;
            const double now = monotonic_now();
            const bool new_data = sampler_.revision() != frame_.revision;
            if (new_data) frame_ = sampler_.latest();
            if (new_data || dirty) rebuild_view(now);
            const bool message_shown = !state_.message.empty() && now < state_.message_expires_at;
            const auto second = static_cast<std::int64_t>(std::floor(now));
            const bool resized = terminal_.width() != drawn_width_ || terminal_.height() != drawn_height_;
            if (dirty || new_data || resized || second != drawn_second_ || message_shown != drawn_message_) {
                draw(now, second);
                drawn_message_ = message_shown;
                dirty = false;
            }
            // Keys ncurses already holds come first; otherwise sleep until a key, new
            // data, the next second or a message expiry (no polling timer).
            auto key = terminal_.read_key(0);
            if (!key) {
                wait_for_event(milliseconds_until_next_change(monotonic_now()));
                key = terminal_.read_key(0);
            }
            if (!key) continue;
            context_.now = monotonic_now();
            switch (handle_key(state_, *key, context_)) {
                case Effect::quit: return;
                case Effect::refresh: sampler_.request_refresh(); break;
                case Effect::confirm_termination: confirm_termination(); break;
                case Effect::none:
                case Effect::redraw: break;
            }
            if (key->kind == KeyKind::redraw) terminal_.repaint_everything();
            dirty = true;
        }
    }

private:
    int milliseconds_until_next_change(double now) const {
        double next = std::floor(now) + 1.0;
        if (!state_.message.empty() && now < state_.message_expires_at) next = std::min(next, state_.message_expires_at);
        return std::clamp(static_cast<int>(std::ceil((next - now) * 1000.0)), 1, 1000);
    }

    // poll() on the keyboard and the sampler's publication fd. A signal (SIGWINCH,
    // SIGTERM) interrupts it, and the loop then looks at the reason.
    void wait_for_event(int timeout_ms) {
        pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {sampler_.publication_fd(), POLLIN, 0}};
        if (::poll(fds, 2, timeout_ms) > 0 && (fds[1].revents & POLLIN)) {
            std::uint64_t count = 0;
            [[maybe_unused]] const ssize_t n = ::read(sampler_.publication_fd(), &count, sizeof count);
        }
    }

    void rebuild_view(double now) {
        if (!frame_.snapshot) return;
        view_ = apply_view(*frame_.snapshot, effective_filter(state_));
        context_.unfiltered = frame_.snapshot.get();
        context_.processes = view_.processes;
        context_.devices = view_.devices;
        context_.now = now;
        on_new_data(state_, context_);
        clamp_scroll(state_, context_);
    }

    void draw(double now, std::int64_t second) {
        Canvas canvas(terminal_.width(), terminal_.height());
        ScreenInput input;
        input.unfiltered = frame_.snapshot.get();
        input.view = frame_.snapshot ? &view_ : nullptr;
        input.history = frame_.history.get();
        input.state = &state_;
        input.now_second = second;
        input.now = now;
        input.ascii = ascii_;
        input.title = std::string("musatop ") + cli::kVersion;
        const ScreenGeometry geometry = draw_screen(canvas, input);
        state_.device_offset = geometry.device_offset;
        state_.modal_scroll = geometry.modal_scroll;
        context_.process_page_size = geometry.process_page_size;
        context_.device_page_size = geometry.layout.device_page_size;
        clamp_scroll(state_, context_);
        terminal_.draw(canvas);
        drawn_width_ = canvas.width();
        drawn_height_ = canvas.height();
        drawn_second_ = second;
    }

    // `y` in the dialog: check against the newest completed sample first.
    void confirm_termination() {
        frame_ = sampler_.latest();
        rebuild_view(monotonic_now());
        if (state_.modal != Modal::confirm || !state_.modal_process) return;  // cancelled by the re-check
        state_.modal = Modal::none;
        show_message(state_, terminate_process(*state_.modal_process), monotonic_now());
        sampler_.request_refresh();
    }

    Sampler& sampler_;
    CursesTerminal& terminal_;
    bool ascii_;
    UiState state_;
    Frame frame_;
    Snapshot view_;
    ScreenContext context_;
    int drawn_width_ = -1;
    int drawn_height_ = -1;
    std::int64_t drawn_second_ = -1;
    bool drawn_message_ = false;
};

}  // namespace

int run_tui(const cli::Options& options, std::unique_ptr<Collector> collector) {
    std::setlocale(LC_CTYPE, "");
    SamplerSettings settings;
    settings.interval = std::chrono::duration<double>(options.interval_seconds);
    settings.aggregate_indices = options.filter.gpu_indices;
    Sampler sampler(std::move(collector), settings);
    sampler.start();

    std::string failure;
    int signal_received = 0;
    {
        TerminalGuard guard;
        const bool want_color = !options.no_color && !std::getenv("NO_COLOR");
        auto terminal = CursesTerminal::open(want_color);
        if (!terminal.ok()) {
            failure = terminal.error();
        } else {
            try {
                TuiLoop(options, sampler, *terminal.value()).run();
            } catch (const std::exception& error) {
                failure = std::string("internal error in the UI: ") + error.what();
            }
        }
        signal_received = TerminalGuard::quit_signal();
    }  // terminal restored here, before anything is printed
    sampler.stop();
    if (!failure.empty()) {
        std::cerr << "musatop: " << failure << "\n";
        return 1;
    }
    // Ctrl-C is the quit key; SIGTERM and SIGHUP end the program the usual way.
    return (signal_received == SIGTERM || signal_received == SIGHUP) ? 128 + signal_received : 0;
}

}  // namespace musatop::tui
