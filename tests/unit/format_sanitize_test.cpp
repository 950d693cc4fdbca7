#include <gtest/gtest.h>

#include "musatop/output/format.hpp"
#include "musatop/output/sanitize.hpp"

using namespace musatop;

TEST(Format, Bytes) {
    EXPECT_EQ(format_bytes(std::nullopt), "N/A");
    EXPECT_EQ(format_bytes(0), "0MiB");
    EXPECT_EQ(format_bytes(1), "0MiB");
    EXPECT_EQ(format_bytes(1LL << 20), "1MiB");
    EXPECT_EQ(format_bytes(512LL << 20), "512MiB");
    EXPECT_EQ(format_bytes(1023LL << 20), "1023MiB");
    EXPECT_EQ(format_bytes(1LL << 30), "1.0GiB");
    EXPECT_EQ(format_bytes(1610612736), "1.5GiB");
    EXPECT_EQ(format_bytes(80LL << 30), "80.0GiB");
    EXPECT_EQ(format_bytes(1024LL << 30), "1024.0GiB");
}

TEST(Format, Numbers) {
    EXPECT_EQ(format_number(std::nullopt, "%"), "N/A");
    EXPECT_EQ(format_number(42.0, "%"), "42%");
    EXPECT_EQ(format_number(0.0, "%"), "0%");
    EXPECT_EQ(format_number(-4.0, "C"), "-4C");
    EXPECT_EQ(format_number(367.49, "W"), "367W");
    EXPECT_EQ(format_number(2.5), "2");  // round half to even, like printf
}

TEST(Format, Durations) {
    EXPECT_EQ(format_duration(std::nullopt), "N/A");
    EXPECT_EQ(format_duration(3661), "01:01:01");
    EXPECT_EQ(format_duration(90061), "1d01:01:01");
    EXPECT_EQ(format_duration(-1), "00:00:00");
    EXPECT_EQ(format_duration(59.99), "00:00:59");
}

TEST(Format, Iso8601AlwaysHasMicroseconds) {
    const WallTime t = WallTime(std::chrono::seconds(1796220311)) + std::chrono::microseconds(5);
    EXPECT_EQ(format_iso8601(t), "2026-12-02T14:05:11.000005+00:00");
    EXPECT_EQ(format_iso8601(WallTime(std::chrono::seconds(0))), "1970-01-01T00:00:00.000000+00:00");
}

TEST(Format, UsedTotalDropsTheSharedUnit) {
    EXPECT_EQ(format_used_total(2LL << 30, 80LL << 30), "2.0/80.0GiB");
    EXPECT_EQ(format_used_total(1023LL << 20, 80LL << 30), "1023MiB/80.0GiB");
    EXPECT_EQ(format_used_total(std::nullopt, 80LL << 30), "N/A/80.0GiB");
    EXPECT_EQ(format_used_total(2LL << 30, 0), "2.0GiB/0MiB");
    EXPECT_EQ(format_used_total(0, 0), "0/0MiB");
}

TEST(Sanitize, ControlsFormatCharactersAndEscapesBecomeSpaces) {
    EXPECT_EQ(sanitize("test\x1b[2J\nnext"), "test [2J next");
    // ESC, BEL, LF, CR, TAB, NUL, DEL, C1 CSI (U+009B), RLO (U+202E), then an invalid byte.
    const std::string input =
        std::string("\x1b]52;c;secret\x07\n\r\t") + std::string(1, '\0') + "\x7f\xc2\x9b\xe2\x80\xae" + "safe";
    EXPECT_EQ(sanitize(input), " ]52;c;secret" + std::string(8, ' ') + "safe");
    EXPECT_EQ(sanitize("\xed\xa0\x80x"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbdx");  // encoded surrogate: invalid
    EXPECT_EQ(sanitize("soft\xc2\xad"
                       "hyphen"),
              "soft hyphen");
    EXPECT_EQ(sanitize("训练任务"), "训练任务");
    EXPECT_EQ(sanitize_or_na(std::nullopt), "N/A");
}

TEST(Sanitize, DisplayWidthCountsCells) {
    EXPECT_EQ(display_width("abc"), 3);
    EXPECT_EQ(display_width("训练"), 4);
    EXPECT_EQ(display_width("e\xcc\x81"), 1);  // e + combining acute
    EXPECT_EQ(truncate_to_width("训练任务", 5), "训练");
    EXPECT_EQ(fit_right("训练任务", 5), "训练 ");
    EXPECT_EQ(pad_left("ab", 4), "  ab");
    EXPECT_EQ(pad_right("abcdef", 3), "abcdef");
}

// fit_tail keeps the end of what it must cut: the part that tells addresses apart.
TEST(Sanitize, FitTailKeepsTheEnd) {
    EXPECT_EQ(fit_tail("127.0.0.1:19497", 14), "~7.0.0.1:19497");
    EXPECT_EQ(fit_tail("gpu01", 8), "gpu01   ");
    EXPECT_EQ(fit_tail("节点一二三", 6), "~二三 ");  // wide characters are never split
    EXPECT_EQ(fit_tail("abc", 0), "");
}
