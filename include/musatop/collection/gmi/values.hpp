// Normalisation of the loosely typed values that mthreads-gmi prints: unit-suffixed
// strings ("96.66W", "81920MiB", "42%"), "N/A" spellings and odd key spellings.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace musatop::gmi {

// Lower-cased key with everything outside [a-z0-9] removed, so "Power Draw ",
// "power_draw" and "PowerDraw" all compare equal.
std::string normalize_key(std::string_view key);
// normalize_key(a) == normalize_key(b), without building either (GMI's JSON is
// searched for a few dozen keys every round).
bool keys_match(std::string_view a, std::string_view b);

// Trimmed text, or nullopt when it is a missing token.
std::optional<std::string> clean_text(std::string_view text);

// A number with an optional unit glued on ("12.5 W", "+5%"); no exponents, no inf/nan.
std::optional<double> parse_number(std::string_view text, std::string_view unit, bool allow_negative = false);

// parse_number with unit "%" restricted to 0..100.
std::optional<double> parse_percent(std::string_view text);

// A whole, nonnegative count with an optional unit glued on ("5", "16x", "3 pages").
std::optional<std::int64_t> parse_count(std::string_view text, std::string_view unit = {});

// "Yes"/"No" (any case), or a count where nonzero means yes.
std::optional<bool> parse_yes_no(std::string_view text);

enum class MemoryUnit { optional_mib, required };

// "1.5 GiB", "2MB", "512B"; without a unit the amount is MiB (GMI's convention) unless
// the unit is required. Binary prefixes with "i", decimal without.
std::optional<std::int64_t> parse_memory_bytes(std::string_view text, MemoryUnit unit = MemoryUnit::optional_mib);

}  // namespace musatop::gmi
