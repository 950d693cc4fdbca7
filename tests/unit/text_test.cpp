#include <gtest/gtest.h>

#include <limits>

#include "musatop/util/clock.hpp"
#include "musatop/util/text.hpp"

using namespace musatop::text;

TEST(Text, OneWhitespaceDefinitionForTrimAndSplit) {
    EXPECT_EQ(trim(" \t\f\v a b \r\n"), "a b");
    const auto words = split_whitespace("a\fb\vc\td  e\r\n");
    EXPECT_EQ(words, (std::vector<std::string_view>{"a", "b", "c", "d", "e"}));
    EXPECT_TRUE(split_whitespace(" \t ").empty());
}

TEST(Text, AsciiCaseFoldingLeavesOtherBytesAlone) {
    EXPECT_EQ(fold_case("ÄBC-xyz"), "Äbc-xyz");
    EXPECT_TRUE(iequals("Driver VERSION", "driver version"));
    EXPECT_FALSE(iequals("abc", "abcd"));
    EXPECT_TRUE(starts_with_icase("ERROR: x", "error:"));
    EXPECT_TRUE(contains_icase("Bus-Id PCIe", "pcie"));
    EXPECT_FALSE(contains_icase("abc", "abd"));
    EXPECT_TRUE(all_digits("0123"));
    EXPECT_FALSE(all_digits(""));
    EXPECT_FALSE(all_digits("12a"));
}

TEST(Text, SplitLinesDropsCarriageReturns) {
    EXPECT_EQ(split_lines("a\r\nb\n\nc"), (std::vector<std::string_view>{"a", "b", "", "c"}));
}

TEST(Clock, UnixTimesTheWallClockCannotHoldAreNoTime) {
    using musatop::wall_time_from_unix;
    using musatop::WallTime;
    EXPECT_EQ(wall_time_from_unix(std::int64_t{1796205600}), WallTime(std::chrono::seconds(1796205600)));
    EXPECT_EQ(wall_time_from_unix(1.5), WallTime(std::chrono::milliseconds(1500)));
    EXPECT_TRUE(wall_time_from_unix(std::int64_t{9'223'372'035}));  // April 2262, the clock's last second
    for (const std::int64_t bad : {std::int64_t{-1}, std::int64_t{9'223'372'037}, std::int64_t{233'298'099'379},
                                   std::numeric_limits<std::int64_t>::max()})
        EXPECT_FALSE(wall_time_from_unix(bad)) << bad;
    for (const double bad :
         {-0.5, 1e30, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()})
        EXPECT_FALSE(wall_time_from_unix(bad)) << bad;
}
