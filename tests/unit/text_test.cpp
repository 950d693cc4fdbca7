#include <gtest/gtest.h>

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
