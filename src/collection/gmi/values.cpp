#include "musatop/collection/gmi/values.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <limits>

#include "musatop/util/text.hpp"

namespace musatop::gmi {
namespace {

using text::fold;
using text::iequals;
using text::is_digit;
using text::is_missing_token;
using text::is_space;
using text::trim;

// Splits "[+-]?(\d+(\.\d*)?|\.\d+)" off the front; returns its length or 0.
std::size_t scan_decimal(std::string_view text) {
    std::size_t pos = 0;
    if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) ++pos;
    const std::size_t int_start = pos;
    while (pos < text.size() && is_digit(text[pos])) ++pos;
    const bool has_int = pos > int_start;
    if (pos < text.size() && text[pos] == '.') {
        const std::size_t frac_start = pos + 1;
        std::size_t end = frac_start;
        while (end < text.size() && is_digit(text[end])) ++end;
        if (!has_int && end == frac_start) return 0;
        pos = end;
    } else if (!has_int) {
        return 0;
    }
    return pos;
}

std::optional<double> to_double(std::string_view number) {
    if (!number.empty() && number.front() == '+') number.remove_prefix(1);
    // from_chars rejects ".5" and "5.", which Python's float() accepts: add the zeros.
    std::string buffer;
    if (!number.empty() && number.front() == '-') {
        buffer.push_back('-');
        number.remove_prefix(1);
    }
    if (!number.empty() && number.front() == '.') buffer.push_back('0');
    buffer.append(number);
    if (!buffer.empty() && buffer.back() == '.') buffer.push_back('0');
    double value = 0;
    const auto [end, error] = std::from_chars(buffer.data(), buffer.data() + buffer.size(), value);
    if (error != std::errc{} || end != buffer.data() + buffer.size() || !std::isfinite(value)) return std::nullopt;
    return value;
}

}  // namespace

std::string normalize_key(std::string_view key) {
    std::string out;
    out.reserve(key.size());
    for (char c : key) {
        const char l = fold(c);
        if ((l >= 'a' && l <= 'z') || is_digit(l)) out.push_back(l);
    }
    return out;
}

bool keys_match(std::string_view a, std::string_view b) {
    const auto kept = [](char c) {
        const char l = fold(c);
        return (l >= 'a' && l <= 'z') || is_digit(l);
    };
    std::size_t i = 0, j = 0;
    for (;;) {
        while (i < a.size() && !kept(a[i])) ++i;
        while (j < b.size() && !kept(b[j])) ++j;
        if (i == a.size() || j == b.size()) return i == a.size() && j == b.size();
        if (fold(a[i]) != fold(b[j])) return false;
        ++i, ++j;
    }
}

std::optional<std::string> clean_text(std::string_view text) {
    if (is_missing_token(text)) return std::nullopt;
    return std::string(trim(text));
}

std::optional<double> parse_number(std::string_view text, std::string_view unit, bool allow_negative) {
    if (is_missing_token(text)) return std::nullopt;
    text = trim(text);
    const std::size_t number_length = scan_decimal(text);
    if (number_length == 0) return std::nullopt;
    std::string_view rest = text.substr(number_length);
    while (!rest.empty() && is_space(rest.front())) rest.remove_prefix(1);
    if (!rest.empty() && !iequals(rest, unit)) return std::nullopt;
    const auto value = to_double(text.substr(0, number_length));
    if (!value || (*value < 0 && !allow_negative)) return std::nullopt;
    return *value == 0 ? 0.0 : value;  // "-0" is zero, not negative zero
}

std::optional<double> parse_percent(std::string_view text) {
    const auto value = parse_number(text, "%");
    if (!value || *value > 100) return std::nullopt;
    return value;
}

std::optional<std::int64_t> parse_memory_bytes(std::string_view text, MemoryUnit unit_rule) {
    if (is_missing_token(text)) return std::nullopt;
    text = trim(text);
    const std::size_t number_length = scan_decimal(text);
    if (number_length == 0) return std::nullopt;
    std::string_view unit = text.substr(number_length);
    while (!unit.empty() && is_space(unit.front())) unit.remove_prefix(1);

    int exponent = 2;  // bare numbers are MiB
    bool binary = true;
    if (unit.empty()) {
        if (unit_rule == MemoryUnit::required) return std::nullopt;
    } else {
        if (fold(unit.back()) != 'b') return std::nullopt;
        unit.remove_suffix(1);
        binary = false;
        exponent = 0;
        if (!unit.empty() && fold(unit.back()) == 'i') {
            binary = true;
            unit.remove_suffix(1);
            // A bare "iB" names no prefix: unknown rather than a guess.
            if (unit.empty()) return std::nullopt;
        }
        if (unit.size() > 1) return std::nullopt;
        if (unit.size() == 1) {
            static constexpr std::string_view prefixes = "kmgtpe";
            const auto found = prefixes.find(fold(unit.front()));
            if (found == std::string_view::npos) return std::nullopt;
            exponent = static_cast<int>(found) + 1;
        }
    }
    const auto amount = to_double(text.substr(0, number_length));
    if (!amount || *amount < 0) return std::nullopt;
    const double bytes = *amount * std::pow(binary ? 1024.0 : 1000.0, exponent);
    if (!std::isfinite(bytes) || bytes >= 9.2e18) return std::nullopt;
    return static_cast<std::int64_t>(bytes);
}

std::optional<std::int64_t> parse_count(std::string_view text, std::string_view unit) {
    const auto value = parse_number(text, unit);
    if (!value || *value != std::floor(*value) || *value > 1e15) return std::nullopt;
    return static_cast<std::int64_t>(*value);
}

std::optional<bool> parse_yes_no(std::string_view text) {
    const auto word = trim(text);
    if (iequals(word, "yes")) return true;
    if (iequals(word, "no")) return false;
    const auto count = parse_count(word);
    return count ? std::optional<bool>(*count > 0) : std::nullopt;
}

}  // namespace musatop::gmi
