// Driver events counted once across rounds: the ring is read whole each round,
// holds 50 records, wraps, and is cleared by a reset; the counts only rise.
#include <gtest/gtest.h>

#include "driver_records.hpp"
#include "musatop/collection/driver/driver_parse.hpp"
#include "musatop/model/event_tally.hpp"

using namespace musatop;

namespace {

// Records `first` .. `first + count - 1`, one second apart, as the driver writes them.
std::string ring(int first, int count) {
    std::string bytes;
    for (int i = first; i < first + count; ++i) {
        musatop::testing::Gen2Record r;
        r.time = 1796000000 + static_cast<std::uint64_t>(i);
        bytes += musatop::testing::gen2_record(r);
    }
    return bytes;
}

std::uint64_t total_after(EventTally& tally, const std::string& bytes, bool unread = false) {
    std::vector<Device> devices(1);
    devices[0].bus_id = "00000000:18:00.0";
    devices[0].driver_events = driver::distinct_events(driver::parse_event_ring(bytes));
    if (unread) devices[0].driver_events.reset(), devices[0].driver_events_reason = "event_report: EINVAL";
    tally.observe(devices);
    std::uint64_t total = 0;
    for (const auto& t : devices[0].driver_event_totals) total += t.count;
    return total;
}

}  // namespace

TEST(EventTally, AWrappedRingAResetAndAnUnreadRoundCountEachEventOnce) {
    EventTally tally;
    EXPECT_EQ(total_after(tally, ring(0, 50)), 50u);   // a full ring at the first read
    EXPECT_EQ(total_after(tally, ring(0, 50)), 50u);   // read again: nothing new
    EXPECT_EQ(total_after(tally, ring(10, 50)), 60u);  // wrapped: the 10 oldest overwritten by 10 new
    EXPECT_EQ(total_after(tally, ""), 60u);            // a reset clears the ring; the count stays
    EXPECT_EQ(total_after(tally, ring(100, 2)), 62u);  // events after the reset
    EXPECT_EQ(total_after(tally, "", true), 62u);      // a failed read knows nothing new...
    EXPECT_EQ(total_after(tally, ring(100, 2)), 62u);  // ...and forgets nothing it had seen
}

TEST(EventTally, MoreRecordsThanTheRingHoldsAreAllRead) {
    // The reader's buffer holds 64 slots of 256 bytes, more than the driver's 50.
    const auto events = driver::parse_event_ring(ring(0, 60));
    EXPECT_EQ(events.size(), 60u);
    EXPECT_EQ(driver::distinct_events(events).size(), 60u);
    EXPECT_EQ(driver::distinct_events(driver::parse_event_ring(ring(0, 3) + ring(0, 3))).size(), 3u);
}

TEST(EventTally, TotalsAreKeptPerGpuByBusIdNeverByIndex) {
    EventTally tally;
    std::vector<Device> devices(2);
    devices[0].bus_id = "00000000:18:00.0";
    devices[1].bus_id = "00000000:19:00.0";
    devices[0].driver_events = driver::parse_event_ring(ring(0, 3));
    tally.observe(devices);
    std::swap(devices[0], devices[1]);  // GMI lists them the other way round
    devices[0].driver_events = std::vector<musatop::DriverEvent>{};
    devices[1].driver_events = driver::parse_event_ring(ring(0, 3));
    tally.observe(devices);
    EXPECT_TRUE(devices[0].driver_event_totals.empty());
    ASSERT_EQ(devices[1].driver_event_totals.size(), 1u);
    EXPECT_EQ(devices[1].driver_event_totals[0].count, 3u);
    EXPECT_EQ(devices[1].driver_event_totals[0].last_time_seconds, 1796000002);
}
