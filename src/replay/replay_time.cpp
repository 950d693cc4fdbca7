#include "musatop/replay/replay_time.hpp"

#include <charconv>
#include <ctime>

#include "musatop/util/clock.hpp"

namespace musatop::replay {
namespace {

std::optional<std::chrono::seconds> parse_offset(std::string_view text) {
    std::chrono::seconds total{0};
    bool any = false;
    while (!text.empty()) {
        long long value = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (error != std::errc{} || end == text.data() || end == text.data() + text.size()) return std::nullopt;
        const char unit = *end;
        const long long scale = unit == 'h' ? 3600 : unit == 'm' ? 60 : unit == 's' ? 1 : 0;
        if (scale == 0 || value > 100LL * 365 * 24 * 3600) return std::nullopt;
        total += std::chrono::seconds(value * scale);
        any = true;
        text.remove_prefix(static_cast<std::size_t>(end - text.data()) + 1);
    }
    if (!any) return std::nullopt;
    return total;
}

int number(std::string_view text, std::size_t at, std::size_t count) {
    int value = -1;
    if (at + count > text.size()) return -1;
    const auto [end, error] = std::from_chars(text.data() + at, text.data() + at + count, value);
    return error == std::errc{} && end == text.data() + at + count ? value : -1;
}

}  // namespace

std::optional<WallTime> parse_replay_time(std::string_view text, WallTime start) {
    if (!text.empty() && text.front() == '+') {
        const auto offset = parse_offset(text.substr(1));
        if (!offset) return std::nullopt;
        return start + *offset;
    }
    // YYYY-MM-DD[T ]HH:MM[:SS[.fff]][Z|±HH:MM]
    if (text.size() < 16 || text[4] != '-' || text[7] != '-' || (text[10] != 'T' && text[10] != ' ') || text[13] != ':')
        return std::nullopt;
    std::tm t{};
    t.tm_year = number(text, 0, 4) - 1900;
    t.tm_mon = number(text, 5, 2) - 1;
    t.tm_mday = number(text, 8, 2);
    t.tm_hour = number(text, 11, 2);
    t.tm_min = number(text, 14, 2);
    std::size_t at = 16;
    if (at < text.size() && text[at] == ':') {
        t.tm_sec = number(text, at + 1, 2);
        at += 3;
    }
    if (t.tm_year < 70 || t.tm_mon < 0 || t.tm_mon > 11 || t.tm_mday < 1 || t.tm_mday > 31 || t.tm_hour < 0 ||
        t.tm_hour > 23 || t.tm_min < 0 || t.tm_min > 59 || t.tm_sec < 0 || t.tm_sec > 60)
        return std::nullopt;
    std::chrono::microseconds fraction{0};
    if (at < text.size() && text[at] == '.') {
        std::size_t end = at + 1;
        long long micros = 0;
        int digits = 0;
        while (end < text.size() && text[end] >= '0' && text[end] <= '9') {
            if (digits < 6) micros = micros * 10 + (text[end] - '0'), ++digits;
            ++end;
        }
        if (end == at + 1) return std::nullopt;
        while (digits < 6) micros *= 10, ++digits;
        fraction = std::chrono::microseconds(micros);
        at = end;
    }
    const std::string_view zone = text.substr(at);
    std::time_t seconds = 0;
    if (zone.empty()) {
        t.tm_isdst = -1;  // local time, whatever the season
        seconds = std::mktime(&t);
    } else if (zone == "Z") {
        seconds = ::timegm(&t);
    } else if (zone.size() == 6 && (zone[0] == '+' || zone[0] == '-') && zone[3] == ':') {
        const int hours = number(zone, 1, 2), minutes = number(zone, 4, 2);
        if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59) return std::nullopt;
        const int sign = zone[0] == '+' ? 1 : -1;
        seconds = ::timegm(&t) - sign * (hours * 3600 + minutes * 60);
    } else {
        return std::nullopt;
    }
    const auto whole = wall_time_from_unix(static_cast<std::int64_t>(seconds));
    if (!whole) return std::nullopt;
    return *whole + fraction;
}

}  // namespace musatop::replay
