// A recording played back as a feed of frames for the screen: its own clock (the
// recording's time, moving at 0.25x to 64x, pausable), frames decoded from the
// index as they are shown, and trends carried forward one frame at a time (rebuilt
// from the five minutes before a frame only after a jump). Decoding happens off
// the lock, so keys are answered at once. Snapshots are marked replayed, so
// nothing on the screen can signal a process.
#pragma once

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <vector>

#include "musatop/replay/recording.hpp"
#include "musatop/replay/replay_control.hpp"
#include "musatop/sampler/frame_feed.hpp"
#include "musatop/util/unique_fd.hpp"

namespace musatop::replay {

class ReplayPlayer final : public FrameFeed, public ReplayControl {
public:
    ReplayPlayer(RecordingIndex recording, std::optional<std::set<std::int64_t>> aggregate_indices);
    ReplayPlayer(const ReplayPlayer&) = delete;
    ReplayPlayer& operator=(const ReplayPlayer&) = delete;
    ~ReplayPlayer() override;

    void start();  // plays from the first snapshot, at 1x

    Frame latest() const override;
    std::uint64_t revision() const override;
    int publication_fd() const override { return published_fd_.get(); }
    void request_refresh() override {}
    std::chrono::steady_clock::duration interval() const override { return std::chrono::seconds(1); }
    std::int64_t trend_second(MonoTime now) const override;
    std::string status_badge() const override;
    std::string control(ReplayCommand command, std::string_view argument) override;

private:
    void run();
    void play_on(std::unique_lock<std::mutex>& lock);
    void move_to(std::size_t frame);  // with the mutex held: a jump, answered at once, shown when decoded
    std::chrono::steady_clock::duration gap_after(std::size_t frame) const;
    // Player thread only, without the mutex: the history brought up to `frame`
    // (one step on from the last, or rebuilt from its five minutes) and its
    // snapshot; nothing when a newer jump came first or the frame is unreadable.
    std::optional<Snapshot> bring_to(std::size_t frame, std::uint64_t request);
    void publish(std::size_t frame, Snapshot snapshot);  // with the mutex held

    RecordingIndex recording_;  // decoded by the player thread only; its times read by any
    std::optional<std::set<std::int64_t>> aggregate_;
    UniqueFd published_fd_;
    // The player thread's own: the trends up to working_frame_.
    History working_;
    std::optional<std::size_t> working_frame_;

    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::size_t target_ = 0;                  // the frame asked for
    std::atomic<std::uint64_t> request_ = 0;  // one more at every jump: a rebuild under way is dropped
    std::optional<std::size_t> shown_;        // the frame published
    std::string unreadable_;                  // why the last frame asked for could not be shown
    bool paused_ = false;
    double speed_ = 1.0;
    std::chrono::steady_clock::time_point shown_since_;  // when the current frame became due
    Frame frame_;
    bool stop_ = false;
    std::thread thread_;
};

}  // namespace musatop::replay
