// The one round loop: a refresh starts the next round at once, a stop cancels the
// round in progress, a round that cannot go on ends the loop, and --duration's
// limit counts from the first round. No assertion on how long anything took.
#include <gtest/gtest.h>
#include <poll.h>

#include <atomic>

#include "musatop/sampler/round_loop.hpp"
#include "test_support.hpp"

using namespace musatop;
using musatop::testing::wait_for;

namespace {
constexpr auto kHour = std::chrono::hours(1);  // a round is never due by the clock in these tests
}

TEST(RoundLoop, ARefreshStartsTheNextRoundAtOnce) {
    std::atomic<int> rounds = 0;
    RoundLoop loop(kHour, [&](MonoTime, CancelToken) { return ++rounds, true; });
    loop.start();
    ASSERT_TRUE(wait_for([&] { return rounds == 1; }));
    loop.request_refresh();
    ASSERT_TRUE(wait_for([&] { return rounds == 2; }));
    loop.stop();
    loop.join();
    EXPECT_EQ(rounds, 2);
}

TEST(RoundLoop, StopCancelsTheRoundInProgressAndNothingStartsAfter) {
    std::atomic<int> rounds = 0;
    std::atomic<bool> saw_cancel = false;
    RoundLoop loop(std::chrono::milliseconds(1), [&](MonoTime, CancelToken cancel) {
        ++rounds;
        pollfd fd{cancel.fd(), POLLIN, 0};
        ::poll(&fd, 1, -1);  // a hung GMI call: only the cancel ends it
        saw_cancel = cancel.requested();
        return true;
    });
    loop.start();
    ASSERT_TRUE(wait_for([&] { return rounds == 1; }));
    loop.stop();
    loop.join();
    EXPECT_TRUE(saw_cancel);
    EXPECT_EQ(rounds, 1);
    loop.start();  // never after stop()
    loop.join();
    EXPECT_EQ(rounds, 1);
}

TEST(RoundLoop, RunOnTheCallingThreadEndsByTheRoundOrByTheDuration) {
    int rounds = 0;
    RoundLoop ends(std::chrono::milliseconds(0), [&](MonoTime, CancelToken) { return ++rounds < 3; });
    ends.run();
    EXPECT_EQ(rounds, 3);
    rounds = 0;
    RoundLoop limited(kHour, [&](MonoTime, CancelToken) { return ++rounds, true; });
    limited.run(std::chrono::seconds(1));  // the second round would start an hour after the first
    EXPECT_EQ(rounds, 1);
}
