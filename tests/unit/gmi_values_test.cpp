#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "musatop/collection/gmi/values.hpp"
#include "musatop/util/text.hpp"

using namespace musatop::gmi;

TEST(GmiValues, NormalizeKeyIgnoresCaseSpacesAndPunctuation) {
    EXPECT_EQ(normalize_key("Power Draw "), "powerdraw");
    EXPECT_EQ(normalize_key(" current_power LIMIT "), "currentpowerlimit");
    EXPECT_EQ(normalize_key("Slot ID(Name)"), "slotidname");
    // keys_match agrees with comparing normalized keys, without building them.
    for (const auto& [a, b] : std::vector<std::pair<std::string, std::string>>{{"Power Draw ", "power_draw"},
                                                                               {"PowerDraw", "Power Draw"},
                                                                               {"Power", "Power Draw"},
                                                                               {"", " _ "},
                                                                               {"Slot ID(Name)", "slotidname"},
                                                                               {"Fan0", "Fan 1"},
                                                                               {"a", ""},
                                                                               {"Link Width", "linkwidth"}})
        EXPECT_EQ(keys_match(a, b), normalize_key(a) == normalize_key(b)) << a << " / " << b;
}

TEST(GmiValues, MissingTokens) {
    for (const char* token :
         {"", "N/A", "[N/A]", "na", "None", "null", "unknown", "-", "--", "[Not Supported]", "  n/a  "})
        EXPECT_TRUE(musatop::text::is_missing_token(token)) << token;
    for (const char* token : {"0", "0%", "N/A!", "abc"}) EXPECT_FALSE(musatop::text::is_missing_token(token)) << token;
}

TEST(GmiValues, NumbersFollowTheReferenceRule) {
    EXPECT_EQ(parse_number("50 %", "%"), 50.0);
    EXPECT_EQ(parse_number("+5%", "%"), 5.0);
    EXPECT_EQ(parse_number("55", "%"), 55.0);
    EXPECT_EQ(parse_number("12.5 w", "W"), 12.5);
    EXPECT_EQ(parse_number("-4C", "C", true), -4.0);
    EXPECT_EQ(parse_number(".5W", "W"), 0.5);
    EXPECT_EQ(parse_number("5.W", "W"), 5.0);
    EXPECT_FALSE(parse_number("12.5 kW", "W"));
    EXPECT_FALSE(parse_number("1e2%", "%"));
    EXPECT_FALSE(parse_number("-4C", "C"));
    EXPECT_FALSE(parse_number("NaNW", "W"));
    EXPECT_FALSE(parse_number("inf", ""));
    EXPECT_FALSE(parse_number("1,000W", "W"));
    EXPECT_FALSE(parse_number(".", ""));
}

TEST(GmiValues, PercentRejectsOverHundred) {
    EXPECT_EQ(parse_percent("100%"), 100.0);
    EXPECT_EQ(parse_percent("0%"), 0.0);
    EXPECT_FALSE(parse_percent("101%"));
    EXPECT_FALSE(parse_percent("-1%"));
}

TEST(GmiValues, MemoryConversions) {
    EXPECT_EQ(parse_memory_bytes("1GiB"), 1073741824);
    EXPECT_EQ(parse_memory_bytes("1.5 MiB"), 1572864);
    EXPECT_EQ(parse_memory_bytes("2MB"), 2000000);
    EXPECT_EQ(parse_memory_bytes("512B"), 512);
    EXPECT_EQ(parse_memory_bytes("0"), 0);
    EXPECT_EQ(parse_memory_bytes("12"), 12582912);
    EXPECT_EQ(parse_memory_bytes("1kB"), 1000);
    EXPECT_EQ(parse_memory_bytes("1KB"), 1000);
    EXPECT_EQ(parse_memory_bytes("1 KiB"), 1024);
    EXPECT_EQ(parse_memory_bytes(".5GiB"), 536870912);
    EXPECT_EQ(parse_memory_bytes("5."), 5242880);
    EXPECT_EQ(parse_memory_bytes("1 mib"), 1048576);
    EXPECT_EQ(parse_memory_bytes("1TB"), 1000000000000);
    EXPECT_EQ(parse_memory_bytes("81920MiB"), 85899345920);
    for (const char* bad : {"N/A", "-1MiB", "NaN", "true", "bad", "1e3MiB", "[N/A]", "1XB", "1 MiBs"})
        EXPECT_FALSE(parse_memory_bytes(bad)) << bad;
}

TEST(GmiValues, BareIbUnitIsUnknownNotACrash) {
    EXPECT_FALSE(parse_memory_bytes("12iB"));
    EXPECT_FALSE(parse_memory_bytes("12 iB"));
}

TEST(GmiValues, MemoryOverflowIsUnknown) {
    EXPECT_FALSE(parse_memory_bytes("1" + std::string(300, '0') + "EiB"));
    EXPECT_FALSE(parse_memory_bytes("9000000EiB"));
}

TEST(GmiValues, RequiredUnitRejectsBareNumbers) {
    EXPECT_FALSE(parse_memory_bytes("12", MemoryUnit::required));
    EXPECT_EQ(parse_memory_bytes("12MiB", MemoryUnit::required), 12582912);
}
