#include "musatop/replay/replay_player.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <ctime>

#include "musatop/replay/replay_time.hpp"

namespace musatop::replay {
namespace {

constexpr double kMinSpeed = 0.25;
constexpr double kMaxSpeed = 64;

// The recording's wall time on the monotonic axis the history and trends use.
MonoTime on_trend_axis(WallTime t) {
    return MonoTime(std::chrono::duration_cast<std::chrono::steady_clock::duration>(t.time_since_epoch()));
}

std::string local_time(WallTime t) {
    const std::time_t seconds = std::chrono::system_clock::to_time_t(t);
    std::tm local{};
    ::localtime_r(&seconds, &local);
    char text[64];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &local);
    return text;
}

std::string speed_text(double speed) {
    char text[16];
    std::snprintf(text, sizeof text, "%gx", speed);
    return text;
}

}  // namespace

ReplayPlayer::ReplayPlayer(std::vector<Snapshot> snapshots, std::optional<std::set<std::int64_t>> aggregate_indices)
    : snapshots_(std::move(snapshots)),
      aggregate_(std::move(aggregate_indices)),
      published_fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
    for (auto& s : snapshots_) s.replayed = true;
}

ReplayPlayer::~ReplayPlayer() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    changed_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void ReplayPlayer::start() {
    std::lock_guard lock(mutex_);
    move_to(0);
    thread_ = std::thread([this] { run(); });
}

Frame ReplayPlayer::frame_at(std::size_t index) const {
    Frame frame;
    const Snapshot& current = snapshots_.at(index);
    // Trends: the recorded samples of the five minutes up to this one.
    auto history = std::make_shared<History>(aggregate_);
    const WallTime window_start = current.sampled_at - std::chrono::seconds(kHistorySeconds);
    auto first = std::lower_bound(snapshots_.begin(), snapshots_.begin() + static_cast<long>(index), window_start,
                                  [](const Snapshot& s, WallTime t) { return s.sampled_at < t; });
    for (auto it = first; it != snapshots_.begin() + static_cast<long>(index) + 1; ++it)
        history->record(*it, on_trend_axis(it->sampled_at));
    frame.snapshot = std::make_shared<const Snapshot>(current);
    frame.history = std::move(history);
    frame.completed_at = on_trend_axis(current.sampled_at);
    return frame;
}

void ReplayPlayer::move_to(std::size_t index) {
    index_ = std::min(index, snapshots_.size() - 1);
    shown_since_ = std::chrono::steady_clock::now();
    publish();
    changed_.notify_all();
}

void ReplayPlayer::publish() {
    const std::uint64_t revision = frame_.revision + 1;
    frame_ = frame_at(index_);
    frame_.revision = revision;
    const std::uint64_t one = 1;
    [[maybe_unused]] const ssize_t written = ::write(published_fd_.get(), &one, sizeof one);
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
    return whole_seconds(on_trend_axis(snapshots_[index_].sampled_at));
}

std::string ReplayPlayer::status_badge() const {
    std::lock_guard lock(mutex_);
    return "REPLAY " + local_time(snapshots_[index_].sampled_at) + " " + speed_text(speed_) +
           (paused_ ? " PAUSED" : "") + " " + std::to_string(index_ + 1) + "/" + std::to_string(snapshots_.size());
}

// Plays: the next sample is shown when the recorded gap to it, divided by the
// speed, has passed since the current one was shown; the end pauses.
void ReplayPlayer::run() {
    std::unique_lock lock(mutex_);
    while (!stop_) {
        if (paused_ || index_ + 1 >= snapshots_.size()) {
            changed_.wait(lock);
            continue;
        }
        const auto gap = snapshots_[index_ + 1].sampled_at - snapshots_[index_].sampled_at;
        const auto due = shown_since_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                            std::chrono::duration<double>(gap) / speed_);
        if (changed_.wait_until(lock, due) == std::cv_status::timeout && !paused_ && !stop_) {
            move_to(index_ + 1);
            if (index_ + 1 >= snapshots_.size()) paused_ = true;
        }
    }
}

std::string ReplayPlayer::control(ReplayCommand command, std::string_view argument) {
    std::lock_guard lock(mutex_);
    switch (command) {
        case ReplayCommand::toggle_pause:
            paused_ = !paused_;
            if (!paused_ && index_ + 1 >= snapshots_.size()) move_to(0);  // resume at the end: from the start
            shown_since_ = std::chrono::steady_clock::now();
            changed_.notify_all();
            return paused_ ? "Paused." : "Playing at " + speed_text(speed_) + ".";
        case ReplayCommand::step_back:
            paused_ = true;
            if (index_ > 0) move_to(index_ - 1);
            return "Paused; one sample back.";
        case ReplayCommand::step_forward:
            paused_ = true;
            if (index_ + 1 < snapshots_.size()) move_to(index_ + 1);
            return "Paused; one sample forward.";
        case ReplayCommand::slower:
        case ReplayCommand::faster:
            speed_ = std::clamp(command == ReplayCommand::faster ? speed_ * 2 : speed_ / 2, kMinSpeed, kMaxSpeed);
            changed_.notify_all();
            return "Speed " + speed_text(speed_) + ".";
        case ReplayCommand::to_start: move_to(0); return "Start of the recording.";
        case ReplayCommand::to_end:
            paused_ = true;
            move_to(snapshots_.size() - 1);
            return "End of the recording (paused).";
        case ReplayCommand::jump: {
            const auto time = parse_replay_time(argument, snapshots_.front().sampled_at);
            if (!time) return "Not a time: " + std::string(argument) + " (2026-12-02T03:15:00Z, 2026-12-02 03:15, +90s)";
            if (*time < snapshots_.front().sampled_at || *time > snapshots_.back().sampled_at)
                return "Outside the recording: " + std::string(argument);
            std::size_t index = 0;
            while (index + 1 < snapshots_.size() && snapshots_[index + 1].sampled_at <= *time) ++index;
            move_to(index);
            return "Jumped to " + local_time(snapshots_[index].sampled_at) + ".";
        }
    }
    return {};
}

}  // namespace musatop::replay
