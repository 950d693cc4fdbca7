// Text helpers shared by every layer: one definition of whitespace (the six ASCII
// characters Python's str.split() and str.strip() use on bytes) and one ASCII case
// fold, so parsers, filters and history keys agree on both.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace musatop::text {

constexpr bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }
constexpr char fold(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

std::string_view trim(std::string_view text);

// ASCII case folding; other bytes (UTF-8 included) stay as they are.
std::string fold_case(std::string_view text);
bool iequals(std::string_view a, std::string_view b);
bool starts_with_icase(std::string_view text, std::string_view prefix);
bool contains_icase(std::string_view text, std::string_view needle);
bool all_digits(std::string_view text);

// Words separated by runs of whitespace, without copying.
std::vector<std::string_view> split_whitespace(std::string_view text);

// Pieces between separators, empty ones included ("a,,b" -> a, "", b).
std::vector<std::string_view> split(std::string_view text, char separator);

// Splits on \n; a trailing \r (CRLF output) is dropped from each line.
std::vector<std::string_view> split_lines(std::string_view text);

// True for the spellings tools use for "no value": "", N/A, [Not Supported], none,
// null, unknown, -, -- (any case, brackets and surrounding whitespace ignored).
bool is_missing_token(std::string_view text);

}  // namespace musatop::text
