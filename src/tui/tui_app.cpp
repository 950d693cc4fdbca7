#include "musatop/tui/tui_app.hpp"

#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <iostream>

#include "musatop/actions/process_actions.hpp"
#include "musatop/model/view_filter.hpp"
#include "musatop/sampler/sampler.hpp"
#include "musatop/tui/controller.hpp"
#include "musatop/tui/curses_terminal.hpp"
#include "musatop/tui/locale_setup.hpp"
#include "musatop/tui/screens/main_screen.hpp"
#include "musatop/tui/screen_loop.hpp"
#include "musatop/tui/terminal_guard.hpp"
#include "musatop/util/version.hpp"
#include "musatop/output/sanitize.hpp"

namespace musatop::tui {
namespace {

using namespace std::chrono_literals;

// `--record`'s first failure, from the sampler's thread to the screen's.
class RecordingFailure {
public:
    bool stopped() const {
        std::lock_guard lock(mutex_);
        return stopped_;
    }
    void stop_if(std::optional<std::string> error) {
        if (!error) return;
        std::lock_guard lock(mutex_);
        stopped_ = true;
        error_ = std::move(error);
    }
    std::optional<std::string> take() {
        std::lock_guard lock(mutex_);
        return std::exchange(error_, std::nullopt);
    }

private:
    mutable std::mutex mutex_;
    bool stopped_ = false;
    std::optional<std::string> error_;
};

MonoTime next_whole_second(MonoTime t) {
    return MonoTime(std::chrono::floor<std::chrono::seconds>(t.time_since_epoch()) + 1s);
}

// How late a sample may be before the trend's second moves on without it.
constexpr auto kSampleGrace = 250ms;

// The interactive loop. Draws only when something changed: new data, a new second
// for the trends, a key, a resize, or a message that expired.
class TuiLoop final : public ScreenLoop {
public:
    TuiLoop(const TuiSettings& settings, FrameFeed& feed, CursesTerminal& terminal,
            replay::ReplayControl* replay = nullptr, std::shared_ptr<RecordingFailure> recording_failure = nullptr)
        : ScreenLoop(terminal),
          feed_(feed),
          replay_(replay),
          ascii_(settings.ascii || !locale_is_utf8()),
          recording_failure_(std::move(recording_failure)),
          on_choices_(settings.on_choices),
          back_on_escape_(settings.back_on_escape),
          badge_(settings.badge) {
        state_.filter = settings.filter;
        state_.login_name = settings.login_name;
        state_.compact = settings.compact;
        state_.trends_visible = settings.trends;
        choices_ = choices();
        if (!terminal.startup_note.empty())
            state_.message.show(terminal.startup_note, mono_now(), std::chrono::seconds(10));
    }

protected:
    bool take_new_data(MonoTime now) override {
        if (feed_.revision() == frame_.revision) return false;
        frame_ = feed_.latest();
        pass_on(now);
        return true;
    }

    bool wants_draw(MonoTime now) const override { return state_.message.visible(now) != drawn_message_; }

    void draw(MonoTime now, bool changed) override {
        if (changed) rebuild_view(now);
        drawn_message_ = state_.message.visible(now);
        draw_frame(now);
    }

    int publication_fd() const override { return feed_.publication_fd(); }

    bool on_key(const Key& key) override {
        context_.now = mono_now();
        // A node's screen inside the cluster view: Esc on the bare screen goes back.
        if (back_on_escape_ && key.kind == KeyKind::escape && state_.modal == Modal::none && !state_.search_editing &&
            !state_.time_editing)
            return false;
        switch (handle_key(state_, key, context_)) {
            case Effect::quit: return false;
            case Effect::refresh: feed_.request_refresh(); break;
            case Effect::confirm_termination: confirm_termination(); break;
            case Effect::replay:
                state_.message.show(replay_ ? replay_->control(state_.replay_command, state_.replay_argument)
                                            : std::string("Not a replay."),
                                    context_.now);
                break;
            case Effect::none:
            case Effect::redraw: break;
        }
        remember_choices();
        return true;
    }

private:
    // When the screen must change without a key: the trends slide every second and a
    // message expires. When samples come at least once a second, each one redraws and
    // moves the trend's second, so the timer waits for the second after the next
    // sample is due: at rest the screen wakes once per sample, one frame per second.
    // Only when samples stop (a hung GMI) does the timer move the trends alone.
    MonoTime next_change(MonoTime now) const override {
        MonoTime next = next_whole_second(now);
        if (feed_.interval() <= 1s && frame_.snapshot && !(replay_ != nullptr)) {
            const MonoTime due = frame_.completed_at + feed_.interval() + kSampleGrace;
            if (due > now) next = next_whole_second(due);
        }
        if (state_.message.visible(now)) next = std::min(next, state_.message.expires_at);
        return next;
    }

    // `--record` runs on the sampler's thread; its failure ends the recording,
    // not the screen, and is said here.
    void pass_on(MonoTime now) {
        if (!recording_failure_) return;
        if (const auto error = recording_failure_->take()) {
            recording_failure_.reset();
            badge_.clear();
            state_.message.show(*error, now, std::chrono::minutes(1));
        }
    }

    void rebuild_view(MonoTime now) {
        if (!frame_.snapshot) return;
        view_ = apply_view(*frame_.snapshot, effective_filter(state_));
        context_.unfiltered = frame_.snapshot.get();
        context_.provenance = frame_.provenance;
        context_.processes = view_.processes;
        context_.devices = view_.devices;
        context_.now = now;
        context_.replay = (replay_ != nullptr);
        on_new_data(state_, context_);
        clamp_scroll(state_, context_);
    }

    void draw_frame(MonoTime now) {
        Canvas canvas(terminal_.width(), terminal_.height());
        ScreenInput input;
        input.unfiltered = frame_.snapshot.get();
        input.view = frame_.snapshot ? &view_ : nullptr;
        input.history = frame_.history.get();
        input.state = &state_;
        input.now_second = feed_.trend_second(now);
        input.now = now;
        input.ascii = ascii_;
        input.title = std::string("musatop ") + kVersion;
        input.badge = badge_.empty() ? feed_.status_badge() : badge_;
        input.replay = (replay_ != nullptr);
        const ScreenGeometry geometry = draw_screen(canvas, input);
        state_.device_offset = geometry.device_offset;
        state_.modal_scroll = geometry.modal_scroll;
        context_.modal_page_size = std::max(1, canvas.height() - 3);  // as draw_modal pages
        context_.process_page_size = geometry.process_page_size;
        context_.device_page_size = geometry.layout.device_page_size;
        context_.regions = mouse_regions(geometry);
        clamp_scroll(state_, context_);
        terminal_.draw(canvas);
    }

    // `y` in the dialog: check against the newest completed sample first.
    ScreenChoices choices() const {
        return {state_.filter.sort, state_.filter.reverse, state_.compact, state_.trends_visible};
    }

    // The user changed what the next start should restore.
    void remember_choices() {
        if (!on_choices_ || choices() == choices_) return;
        choices_ = choices();
        if (auto error = on_choices_(choices_)) state_.message.show("Settings not saved: " + *error, mono_now());
    }

    void confirm_termination() {
        frame_ = feed_.latest();
        rebuild_view(mono_now());
        if (state_.modal != Modal::confirm || !state_.modal_process) return;  // cancelled by the re-check
        state_.modal = Modal::none;
        state_.message.show(actions::terminate_process(*state_.modal_process), mono_now());
        feed_.request_refresh();
    }

    FrameFeed& feed_;                // the live sampler or a replay
    replay::ReplayControl* replay_;  // a replay's keys; null for live data
    bool ascii_;
    std::shared_ptr<RecordingFailure> recording_failure_;
    std::function<std::optional<std::string>(const ScreenChoices&)> on_choices_;
    ScreenChoices choices_;
    bool back_on_escape_;
    std::string badge_;
    UiState state_;
    Frame frame_;
    Snapshot view_;
    ScreenContext context_;
    bool drawn_message_ = false;
};

}  // namespace

void wait_for_key_or_publication(int publication_fd, MonoTime until) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(until - mono_now()).count();
    const int timeout_ms = static_cast<int>(std::clamp<std::int64_t>(left, 1, 2000));
    pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {publication_fd, POLLIN, 0}};
    if (::poll(fds, 2, timeout_ms) > 0 && (fds[1].revents & POLLIN)) {
        std::uint64_t count = 0;  // an eventfd: one read empties it
        [[maybe_unused]] const ssize_t n = ::read(publication_fd, &count, sizeof count);
    }
}

void run_screen_on(const TuiSettings& settings, FrameFeed& feed, CursesTerminal& terminal) {
    TuiLoop(settings, feed, terminal).run();
}

int run_on_terminal(bool color, bool mouse, const std::function<void(CursesTerminal&)>& screen) {
    const auto locale_note = set_up_locale();
    std::string failure;
    int signal_received = 0;
    {
        TerminalGuard guard;
        auto terminal = CursesTerminal::open(color, mouse);
        if (!terminal.ok()) {
            failure = terminal.error();
        } else {
            terminal.value()->startup_note = locale_note.value_or("");
            try {
                screen(*terminal.value());
            } catch (const std::exception& error) {
                failure = std::string("internal error in the UI: ") + error.what();
            }
        }
        signal_received = TerminalGuard::quit_signal();
    }  // terminal restored here, before anything is printed
    if (!failure.empty()) {
        std::cerr << "musatop: " << sanitize(failure) << "\n";
        return 1;
    }
    // Ctrl-C is the quit key; SIGTERM, SIGHUP and SIGQUIT end the program the usual way.
    const bool by_signal = signal_received == SIGTERM || signal_received == SIGHUP || signal_received == SIGQUIT;
    return by_signal ? 128 + signal_received : 0;
}

int run_screen(const TuiSettings& settings, FrameFeed& feed, replay::ReplayControl* replay) {
    return run_on_terminal(settings.color, settings.mouse,
                           [&](CursesTerminal& terminal) { TuiLoop(settings, feed, terminal, replay).run(); });
}

namespace {

int run_screen_recording(const TuiSettings& settings, FrameFeed& feed, std::shared_ptr<RecordingFailure> failure) {
    return run_on_terminal(settings.color, settings.mouse, [&](CursesTerminal& terminal) {
        TuiLoop(settings, feed, terminal, nullptr, failure).run();
    });
}

}  // namespace

int run_tui(const TuiSettings& settings, std::unique_ptr<Source> source) {
    SamplerSettings sampler_settings;
    sampler_settings.interval = settings.interval;
    sampler_settings.aggregate_indices = settings.filter.gpu_indices;
    std::shared_ptr<RecordingFailure> failure;
    if (settings.on_snapshot) {
        failure = std::make_shared<RecordingFailure>();
        sampler_settings.on_round = [record = settings.on_snapshot, failure](const Snapshot& s) {
            if (!failure->stopped()) failure->stop_if(record(s));
        };
    }
    Sampler sampler(std::move(source), sampler_settings);
    sampler.start();
    const int status = run_screen_recording(settings, sampler, failure);
    sampler.stop();  // after the terminal is restored: a hung GMI is killed, never waited for
    return status;
}

}  // namespace musatop::tui
