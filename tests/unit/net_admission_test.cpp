// Who makes room when a client connects to the agent at its cap.
#include <gtest/gtest.h>

#include <vector>

#include "musatop/net/admission.hpp"

using namespace musatop;
using namespace musatop::net;
using namespace std::chrono_literals;

namespace {

const MonoTime t0{};

ConnectionView conn(std::uint64_t id, Phase phase, std::chrono::seconds at, std::string_view address = "10.0.0.1",
                    bool first = true) {
    return {id, phase, first, t0 + at, address};
}

}  // namespace

TEST(Admission, BelowTheCapNobodyGoes) {
    const std::vector<ConnectionView> open = {conn(1, Phase::head, 1s), conn(2, Phase::idle, 2s, "10.0.0.2", false)};
    const auto a = admit(open, "10.0.0.3", 3, 4);
    EXPECT_TRUE(a.close.empty());
    EXPECT_FALSE(a.refuse_new);
}

TEST(Admission, AtTheCapTheOneDoingLeastGoesFirst) {
    // A lingering refusal, then idle keep-alive (longest idle first), then a first
    // request still to come (oldest first), then a client not reading.
    std::vector<ConnectionView> open = {conn(1, Phase::writing, 1s, "a"),     conn(2, Phase::head, 2s, "b"),
                                        conn(3, Phase::handshake, 1s, "c"),   conn(4, Phase::idle, 5s, "d", false),
                                        conn(5, Phase::idle, 4s, "e", false), conn(6, Phase::closing, 9s, "f"),
                                        conn(7, Phase::queued, 0s, "g")};
    std::vector<std::uint64_t> order;
    while (true) {
        const auto a = admit(open, "z", static_cast<int>(open.size()), 100);
        if (a.refuse_new) break;
        ASSERT_EQ(a.close.size(), 1u);
        order.push_back(a.close[0]);
        std::erase_if(open, [&](const ConnectionView& c) { return c.id == a.close[0]; });
    }
    EXPECT_EQ(order, (std::vector<std::uint64_t>{6, 5, 4, 3, 2, 1}));
    ASSERT_EQ(open.size(), 1u);  // a request being answered never makes room
    EXPECT_EQ(open[0].id, 7u);
}

TEST(Admission, AnAddressPastItsShareLosesItsOwnOldestPending) {
    const std::vector<ConnectionView> open = {
        conn(1, Phase::head, 1s, "10.0.0.9"), conn(2, Phase::head, 2s, "10.0.0.9"),
        conn(3, Phase::handshake, 3s, "10.0.0.9"), conn(4, Phase::head, 0s, "10.0.0.1"),
        // Served once already: a keep-alive client between requests is not pending.
        conn(5, Phase::head, 6s, "10.0.0.9", false)};
    const auto flooder = admit(open, "10.0.0.9", 100, 3);
    EXPECT_EQ(flooder.close, (std::vector<std::uint64_t>{1}));
    const auto other = admit(open, "10.0.0.2", 100, 3);  // another host is not charged for it
    EXPECT_TRUE(other.close.empty());
    // Both rules at once: the share first, then the cap takes the next in line.
    const auto both = admit(open, "10.0.0.9", 4, 3);
    EXPECT_EQ(both.close, (std::vector<std::uint64_t>{1, 4}));
}

TEST(Admission, LimitsFromTheDescriptorLimit) {
    EXPECT_EQ(resolve_max_open(0, 1024, 10, 48), 966);
    EXPECT_EQ(resolve_max_open(0, 1 << 20, 10, 48), 1024);  // at most 1024
    EXPECT_EQ(resolve_max_open(0, 64, 14, 48), 4);          // at least 4
    EXPECT_EQ(resolve_max_open(50, 64, 14, 48), 50);        // a configured cap is kept
    EXPECT_EQ(resolve_per_address(0, 1024), 128);
    EXPECT_EQ(resolve_per_address(0, 5), 4);
    EXPECT_EQ(resolve_per_address(7, 1024), 7);
}
