#include "musatop/replay/replay_player.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <ctime>

#include "musatop/output/format.hpp"
#include "musatop/replay/replay_time.hpp"

namespace musatop::replay {
namespace {

constexpr double kMinSpeed = 0.25;
constexpr double kMaxSpeed = 64;

// The recording's wall time on the monotonic axis the history and trends use.
MonoTime on_trend_axis(WallTime t) {
    return MonoTime(std::chrono::duration_cast<std::chrono::steady_clock::duration>(t.time_since_epoch()));
}

std::string speed_text(double speed) {
    char text[16];
    std::snprintf(text, sizeof text, "%gx", speed);
    return text;
}

}  // namespace

ReplayPlayer::ReplayPlayer(RecordingIndex recording, std::optional<std::set<std::int64_t>> aggregate_indices)
    : recording_(std::move(recording)),
      aggregate_(std::move(aggregate_indices)),
      published_fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)),
      working_(aggregate_) {}

ReplayPlayer::~ReplayPlayer() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
        ++request_;  // a rebuild under way stops at its next frame
    }
    changed_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void ReplayPlayer::start() {
    // The first frame before the screen asks for one.
    auto first = bring_to(0, request_);
    std::lock_guard lock(mutex_);
    if (first) publish(0, std::move(*first));
    move_to(0);
    thread_ = std::thread([this] { run(); });
}

// The time to wait after `frame` before the next: the recorded gap, or the
// interval where the clock stepped back between the two.
std::chrono::steady_clock::duration ReplayPlayer::gap_after(std::size_t frame) const {
    const auto gap = recording_.time(frame + 1) - recording_.time(frame);
    if (gap < WallTime::duration::zero())
        return std::chrono::duration_cast<std::chrono::steady_clock::duration>(
            std::chrono::duration<double>(recording_.header().interval_seconds));
    return std::chrono::duration_cast<std::chrono::steady_clock::duration>(gap);
}

std::optional<Snapshot> ReplayPlayer::bring_to(std::size_t frame, std::uint64_t request) {
    // The five minutes of trends before the frame, not across a clock step.
    const WallTime now = recording_.time(frame);
    std::size_t from = frame;
    while (from > 0 && recording_.time(from - 1) <= recording_.time(from) &&
           recording_.time(from - 1) >= now - std::chrono::seconds(kHistorySeconds))
        --from;
    if (working_frame_ && *working_frame_ + 1 >= from && *working_frame_ < frame) {
        from = *working_frame_ + 1;  // playing on: one frame (or the few due) more
    } else {
        working_ = History(aggregate_);
        working_frame_.reset();
    }
    std::optional<Snapshot> last;
    for (std::size_t i = from; i <= frame; ++i) {
        if (request_ != request) return std::nullopt;  // a newer jump: this one is no longer wanted
        auto snapshot = recording_.load(i);
        working_frame_ = i;
        if (!snapshot.ok()) {
            if (i == frame) {
                std::lock_guard lock(mutex_);
                unreadable_ = snapshot.error();
            }
            continue;
        }
        working_.record(snapshot.value(), on_trend_axis(recording_.time(i)));
        if (i == frame) last = std::move(snapshot.value());
    }
    return last;
}

void ReplayPlayer::publish(std::size_t frame, Snapshot snapshot) {
    frame_.snapshot = std::make_shared<const Snapshot>(std::move(snapshot));
    frame_.provenance = Provenance::replayed;
    frame_.history = std::make_shared<const History>(working_);
    frame_.completed_at = on_trend_axis(recording_.time(frame));
    ++frame_.revision;
    shown_ = frame;
    unreadable_.clear();
    const std::uint64_t one = 1;
    [[maybe_unused]] const ssize_t written = ::write(published_fd_.get(), &one, sizeof one);
}

void ReplayPlayer::move_to(std::size_t frame) {
    target_ = std::min(frame, recording_.size() - 1);
    ++request_;
    shown_since_ = mono_now();
    changed_.notify_all();
}

Frame ReplayPlayer::latest() const {
    std::lock_guard lock(mutex_);
    return frame_;
}

std::uint64_t ReplayPlayer::revision() const {
    std::lock_guard lock(mutex_);
    return frame_.revision;
}

std::int64_t ReplayPlayer::trend_second(MonoTime) const {
    std::lock_guard lock(mutex_);
    return whole_seconds(on_trend_axis(recording_.time(shown_.value_or(target_))));
}

std::string ReplayPlayer::status_badge() const {
    std::lock_guard lock(mutex_);
    const std::size_t frame = shown_.value_or(target_);
    return "REPLAY " + format_local_seconds(recording_.time(frame)) + " " + speed_text(speed_) +
           (paused_ ? " PAUSED" : "") + " " + std::to_string(frame + 1) + "/" + std::to_string(recording_.size()) +
           (unreadable_.empty() ? "" : " (a frame could not be read: " + unreadable_ + ")");
}

// Decodes what was asked for, off the lock; plays on when the next frame is due.
void ReplayPlayer::run() {
    std::unique_lock lock(mutex_);
    while (!stop_) {
        if (target_ != shown_) {
            const std::size_t target = target_;
            const std::uint64_t request = request_;
            lock.unlock();
            auto snapshot = bring_to(target, request);
            lock.lock();
            if (snapshot && request == request_) publish(target, std::move(*snapshot));
            else if (request == request_) shown_ = target;  // unreadable: the last good frame stays, marked
            continue;
        }
        play_on(lock);
    }
}

// The next frame is shown when the recorded gap to it, divided by the speed, has
// passed; when several are due at once (64x), each enters the trends and the last
// is shown. The end pauses.
void ReplayPlayer::play_on(std::unique_lock<std::mutex>& lock) {
    if (paused_ || target_ + 1 >= recording_.size()) {
        changed_.wait(lock);
        return;
    }
    const auto scaled = [&](std::size_t frame) {
        return std::chrono::duration_cast<std::chrono::steady_clock::duration>(
            std::chrono::duration<double>(gap_after(frame)) / speed_);
    };
    auto due = shown_since_ + scaled(target_);
    const std::uint64_t request = request_;
    if (changed_.wait_until(lock, due) != std::cv_status::timeout || paused_ || stop_ || request != request_) return;
    std::size_t next = target_ + 1;
    const auto now = mono_now();
    while (next + 1 < recording_.size() && due + scaled(next) <= now) due += scaled(next++);
    target_ = next;
    shown_since_ = due;
    if (next + 1 >= recording_.size()) paused_ = true;
}

std::string ReplayPlayer::control(ReplayCommand command, std::string_view argument) {
    std::lock_guard lock(mutex_);
    const std::size_t last = recording_.size() - 1;
    switch (command) {
        case ReplayCommand::toggle_pause:
            paused_ = !paused_;
            if (!paused_ && target_ >= last) move_to(0);  // resume at the end: from the start
            shown_since_ = mono_now();
            changed_.notify_all();
            return paused_ ? "Paused." : "Playing at " + speed_text(speed_) + ".";
        case ReplayCommand::step_back:
            paused_ = true;
            if (target_ > 0) move_to(target_ - 1);
            return "Paused; one sample back.";
        case ReplayCommand::step_forward:
            paused_ = true;
            if (target_ < last) move_to(target_ + 1);
            return "Paused; one sample forward.";
        case ReplayCommand::slower:
        case ReplayCommand::faster:
            speed_ = std::clamp(command == ReplayCommand::faster ? speed_ * 2 : speed_ / 2, kMinSpeed, kMaxSpeed);
            changed_.notify_all();
            return "Speed " + speed_text(speed_) + ".";
        case ReplayCommand::to_start: move_to(0); return "Start of the recording.";
        case ReplayCommand::to_end:
            paused_ = true;
            move_to(last);
            return "End of the recording (paused).";
        case ReplayCommand::jump: {
            const auto time = parse_replay_time(argument, recording_.time(0));
            if (!time)
                return "Not a time: " + std::string(argument) + " (2026-12-02T03:15:00Z, 2026-12-02 03:15, +90s)";
            const auto frame = recording_.in_force_at(*time);
            if (!frame || *time > recording_.last_time()) return "Outside the recording: " + std::string(argument);
            move_to(*frame);
            return "Jumped to " + format_local_seconds(recording_.time(*frame)) + ".";
        }
    }
    return {};
}

}  // namespace musatop::replay
