#include <gtest/gtest.h>
#include <poll.h>
#include <stdlib.h>

#include <atomic>
#include <filesystem>
#include <mutex>
#include <stdexcept>

#include "musatop/sampler/sampler.hpp"
#include "test_support.hpp"

using namespace musatop;
using namespace std::chrono_literals;
using musatop::testing::wait_for;

namespace {

// Counts calls and their overlap; can fail or block (until cancelled) on demand.
class FakeSource final : public Source {
public:
    std::atomic<int> calls{0};
    std::atomic<int> in_flight{0};
    std::atomic<int> max_in_flight{0};
    std::atomic<int> fail_on_call{-1};
    std::atomic<bool> block_until_cancelled{false};
    std::atomic<bool> saw_cancel{false};
    std::chrono::milliseconds work{0};
    std::vector<std::optional<double>> utils;  // per call; last repeats

    std::string describe() const override { return "fake"; }
    Snapshot collect(const CancelToken& cancel) override {
        const int n = ++calls;
        const int now = ++in_flight;
        int seen = max_in_flight.load();
        while (now > seen && !max_in_flight.compare_exchange_weak(seen, now)) {}
        struct Leave {
            std::atomic<int>& counter;
            ~Leave() { --counter; }
        } leave{in_flight};
        if (work.count()) std::this_thread::sleep_for(work);
        if (block_until_cancelled) {
            pollfd fd{cancel.fd(), POLLIN, 0};
            ::poll(&fd, 1, -1);
            saw_cancel = true;
        }
        if (n == fail_on_call) throw std::runtime_error("driver unavailable");
        Snapshot s;
        s.sampled_at = std::chrono::system_clock::now();
        Device d;
        d.uuid = "gpu-a";
        d.memory_total_bytes = 100;
        d.memory_used_bytes = 25;
        d.gpu_utilization_percent = utils.empty() ? 50.0 : utils[std::min<std::size_t>(n - 1, utils.size() - 1)];
        if (!d.gpu_utilization_percent) s.devices_stale = true;
        s.devices = {d};
        s.host.cpu_percent = 12;
        return s;
    }
};

struct Harness {
    FakeSource* fake = nullptr;
    std::unique_ptr<Sampler> sampler;
    Harness(double interval_seconds, std::function<MonoTime()> clock = {},
            std::function<void(FakeSource&)> setup = {}) {
        auto collector = std::make_unique<FakeSource>();
        fake = collector.get();
        if (setup) setup(*fake);
        SamplerSettings settings;
        settings.interval = to_duration(Seconds(interval_seconds));
        settings.clock = std::move(clock);
        sampler = std::make_unique<Sampler>(std::move(collector), settings);
    }
};

}  // namespace

TEST(Sampler, RevisionCountsPublications) {
    Harness h(60);
    EXPECT_EQ(h.sampler->revision(), 0u);
    EXPECT_EQ(h.sampler->latest().snapshot, nullptr);
    h.sampler->start();
    h.sampler->start();  // idempotent: still one thread, one first sample
    ASSERT_TRUE(wait_for([&] { return h.sampler->revision() == 1; }));
    const Frame frame = h.sampler->latest();
    EXPECT_EQ(frame.revision, 1u);
    ASSERT_NE(frame.snapshot, nullptr);
    EXPECT_EQ(h.fake->calls, 1);
    h.sampler->request_refresh();
    ASSERT_TRUE(wait_for([&] { return h.sampler->revision() == 2; }));
    EXPECT_EQ(h.sampler->latest().revision, 2u);
    EXPECT_NE(h.sampler->latest().snapshot, frame.snapshot);  // a new snapshot; the old one lives while held
}

TEST(Sampler, RefreshStormNeverOverlapsRounds) {
    Harness h(60, {}, [](FakeSource& f) { f.work = 2ms; });
    h.sampler->start();
    std::atomic<bool> storming{true};
    std::thread storm([&] {
        while (storming) h.sampler->request_refresh();
    });
    const bool enough = wait_for([&] { return h.fake->calls >= 20; });
    storming = false;
    storm.join();
    h.sampler->stop();
    ASSERT_TRUE(enough);
    EXPECT_EQ(h.fake->max_in_flight, 1);
    // stop() may cut the last round short, and a cut round is not published.
    const auto calls = static_cast<std::uint64_t>(h.fake->calls.load());
    EXPECT_TRUE(h.sampler->revision() == calls || h.sampler->revision() + 1 == calls);
}

TEST(Sampler, StopCancelsARoundInProgress) {
    Harness h(60, {}, [](FakeSource& f) { f.block_until_cancelled = true; });
    h.sampler->start();
    ASSERT_TRUE(wait_for([&] { return h.fake->calls == 1; }));
    h.sampler->stop();  // would never return if the round were not cancelled
    EXPECT_TRUE(h.fake->saw_cancel);
    EXPECT_EQ(h.sampler->revision(), 0u);  // a cancelled round is not published
    h.sampler->request_refresh();
    h.sampler->start();
    EXPECT_EQ(h.fake->calls, 1);  // stopped for good
}

TEST(Sampler, StopWakesASleepingSampler) {
    Harness h(3600);
    h.sampler->start();
    ASSERT_TRUE(wait_for([&] { return h.sampler->revision() == 1; }));
    h.sampler->stop();  // returns without waiting for the hour
    EXPECT_EQ(h.fake->calls, 1);
}

TEST(Sampler, FailureBecomesAStaleSnapshotAndRecovers) {
    Harness h(60, {}, [](FakeSource& f) { f.fail_on_call = 2; });
    h.sampler->start();
    ASSERT_TRUE(wait_for([&] { return h.sampler->revision() == 1; }));
    const auto good = h.sampler->latest().snapshot;
    h.sampler->request_refresh();
    ASSERT_TRUE(wait_for([&] { return h.sampler->revision() == 2; }));
    const auto failed = h.sampler->latest().snapshot;
    EXPECT_TRUE(failed->devices_stale && failed->processes_stale);
    EXPECT_EQ(failed->errors, std::vector<std::string>{"Sampling failed: driver unavailable"});
    EXPECT_EQ(failed->devices, good->devices);
    EXPECT_FALSE(failed->host.cpu_percent);
    h.sampler->request_refresh();
    ASSERT_TRUE(wait_for([&] { return h.sampler->revision() == 3; }));
    EXPECT_TRUE(h.sampler->latest().snapshot->errors.empty());
}

TEST(Sampler, FirstRoundFailureGivesAnEmptyStaleSnapshot) {
    Harness h(60, {}, [](FakeSource& f) { f.fail_on_call = 1; });
    h.sampler->start();
    ASSERT_TRUE(wait_for([&] { return h.sampler->revision() == 1; }));
    const auto snapshot = h.sampler->latest().snapshot;
    EXPECT_TRUE(snapshot->devices.empty());
    EXPECT_TRUE(snapshot->devices_stale);
}

TEST(Sampler, HistoryUsesCompletionTime) {
    std::vector<double> completions = {11.5, 20.1, 33.8};
    std::atomic<std::size_t> next{0};
    Harness h(
        60, [&] { return musatop::testing::mono(completions[std::min(next++, completions.size() - 1)]); },
        [](FakeSource& f) {
            f.utils = {10.0, std::nullopt, 80.0};
        });
    h.sampler->start();
    for (std::uint64_t r = 1; r <= 3; ++r) {
        ASSERT_TRUE(wait_for([&] { return h.sampler->revision() == r; }));
        if (r < 3) h.sampler->request_refresh();
    }
    const auto history = h.sampler->latest().history;
    const Series* gpu = history->gpu("uuid:gpu-a");
    ASSERT_NE(gpu, nullptr);
    ASSERT_EQ(gpu->size(), 2u);
    EXPECT_EQ(gpu->at(0), (HistoryPoint{11, 10.0, 25.0}));
    EXPECT_EQ(gpu->at(1), (HistoryPoint{33, 80.0, 25.0}));
    EXPECT_EQ(history->host()->size(), 3u);
    EXPECT_EQ(history->aggregate()->size(), 2u);
}

TEST(Sampler, PublishedFramesAreIndependentOfLaterRounds) {
    Harness h(60);
    h.sampler->start();
    ASSERT_TRUE(wait_for([&] { return h.sampler->revision() == 1; }));
    const Frame first = h.sampler->latest();
    const std::size_t points = first.history->host()->size();
    h.sampler->request_refresh();
    ASSERT_TRUE(wait_for([&] { return h.sampler->revision() == 2; }));
    EXPECT_EQ(first.history->host()->size(), points);
}
