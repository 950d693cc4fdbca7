// A recording played back as a feed of frames for the screen: its own clock (the
// recording's time, moving at 0.25x to 64x, pausable), and trends rebuilt from
// the recorded samples of the five minutes before the current one. Snapshots are
// marked replayed, so nothing on the screen can signal a process.
#pragma once

#include <condition_variable>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <vector>

#include "musatop/sampler/frame_feed.hpp"
#include "musatop/util/unique_fd.hpp"

namespace musatop::replay {

class ReplayPlayer final : public FrameFeed {
public:
    ReplayPlayer(std::vector<Snapshot> snapshots, std::optional<std::set<std::int64_t>> aggregate_indices);
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
    bool is_replay() const override { return true; }
    std::string status_badge() const override;
    std::string control(ReplayCommand command, std::string_view argument) override;

    // The frame for snapshot `index`: exposed for tests.
    Frame frame_at(std::size_t index) const;

private:
    void run();
    void move_to(std::size_t index);  // with the mutex held
    void publish();                   // with the mutex held

    std::vector<Snapshot> snapshots_;
    std::optional<std::set<std::int64_t>> aggregate_;
    UniqueFd published_fd_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::size_t index_ = 0;
    bool paused_ = false;
    double speed_ = 1.0;
    std::chrono::steady_clock::time_point shown_since_;  // when the current sample was shown
    Frame frame_;
    bool stop_ = false;
    std::thread thread_;
};

}  // namespace musatop::replay
