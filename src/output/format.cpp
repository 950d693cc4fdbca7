#include "musatop/output/format.hpp"

#include <cmath>
#include <cstdio>
#include <ctime>

#include "musatop/output/sanitize.hpp"

namespace musatop {
namespace {

constexpr double kGiB = 1073741824.0;
constexpr double kMiB = 1048576.0;

std::string printf_string(const char* format, double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, value);
    return buffer;
}

bool ends_with(const std::string& text, const std::string& suffix) {
    return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::string format_bytes(std::optional<std::int64_t> bytes) {
    if (!bytes) return "N/A";
    const double value = static_cast<double>(*bytes);
    if (value >= kGiB) return printf_string("%.1f", value / kGiB) + "GiB";
    return printf_string("%.0f", value / kMiB) + "MiB";
}

std::string format_number(std::optional<double> value, const std::string& suffix) {
    if (!value || !std::isfinite(*value)) return "N/A";
    return printf_string("%.0f", *value) + suffix;
}

std::string format_duration(std::optional<double> seconds) {
    if (!seconds || !std::isfinite(*seconds)) return "N/A";
    const auto total = static_cast<long long>(std::max(0.0, std::trunc(*seconds)));
    const long long days = total / 86400;
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%02lld:%02lld:%02lld", (total % 86400) / 3600, (total % 3600) / 60,
                  total % 60);
    return (days > 0 ? std::to_string(days) + "d" : std::string()) + buffer;
}

std::string format_iso8601(WallTime time) {
    const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(time.time_since_epoch()).count();
    const std::time_t seconds = static_cast<std::time_t>(micros >= 0 ? micros / 1000000 : (micros - 999999) / 1000000);
    const long fraction = static_cast<long>(micros - static_cast<long long>(seconds) * 1000000);
    std::tm utc{};
    ::gmtime_r(&seconds, &utc);
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%04d-%02d-%02dT%02d:%02d:%02d.%06ld+00:00", utc.tm_year + 1900,
                  utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, fraction);
    return buffer;
}

namespace {

std::string local_text(std::time_t seconds, const char* format) {
    std::tm local{};
    ::localtime_r(&seconds, &local);
    char buffer[64];
    std::strftime(buffer, sizeof buffer, format, &local);
    return buffer;
}

}  // namespace

std::string format_local_time(double unix_seconds) {
    return local_text(static_cast<std::time_t>(unix_seconds), "%Y-%m-%d %H:%M:%S %Z");
}

std::string format_local_seconds(WallTime time) {
    return local_text(std::chrono::system_clock::to_time_t(time), "%Y-%m-%d %H:%M:%S %Z");
}

std::string format_used_total(std::optional<std::int64_t> used, std::optional<std::int64_t> total) {
    if (!used && !total) return "N/A";  // one unknown, not "N/A/N/A"
    std::string used_text = format_bytes(used);
    const std::string total_text = format_bytes(total);
    for (const std::string unit : {"GiB", "MiB"})
        if (ends_with(used_text, unit) && ends_with(total_text, unit)) used_text.resize(used_text.size() - unit.size());
    return used_text + "/" + total_text;
}

std::string format_engines(const std::vector<EngineUtilization>& engines) {
    std::string text;
    for (const auto& engine : engines)
        text += (text.empty() ? "" : ", ") + sanitize(engine.label) + " " + format_number(engine.percent, "%");
    return text;
}

}  // namespace musatop
