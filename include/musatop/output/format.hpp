// Number, byte, duration and time formatting shared by the text output and the TUI.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "musatop/model/snapshot.hpp"

namespace musatop {

// >= 1 GiB: one decimal GiB ("80.0GiB"); below: whole MiB ("512MiB"); unknown: "N/A".
std::string format_bytes(std::optional<std::int64_t> bytes);

// No decimals plus a suffix ("42%", "-4C"); unknown: "N/A".
std::string format_number(std::optional<double> value, const std::string& suffix = "");

// "HH:MM:SS", with "<days>d" in front from one day on; negative counts as 0.
std::string format_duration(std::optional<double> seconds);

// ISO-8601 UTC with microseconds: "2026-12-02T13:52:19.475843+00:00".
std::string format_iso8601(WallTime time);

// Local time for people: "2026-12-02 14:52:19 CET".
std::string format_local_time(double unix_seconds);
// "2026-12-04 15:20:01 CST", local with its zone: every screen's times (JSON keeps
// ISO 8601 UTC).
std::string format_local_seconds(WallTime time);

// "2.0/80.0GiB": the unit is dropped from `used` when both share it.
// "2D 0%, CMP 45%": engine utilisations as the driver labels them, labels
// sanitised (they come from the driver's files); "" for none.
std::string format_engines(const std::vector<EngineUtilization>& engines);

std::string format_used_total(std::optional<std::int64_t> used, std::optional<std::int64_t> total);

}  // namespace musatop
