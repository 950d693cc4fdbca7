// Untrusted text (process names, users, hostnames, GMI fields) on its way to a
// terminal, and its width in terminal cells.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace musatop {

// Every control, format (bidi overrides, soft hyphen, zero-width joiners...),
// surrogate, private-use or non-character code point becomes one space; invalid
// UTF-8 becomes U+FFFD. Nothing can start an escape sequence afterwards.
std::string sanitize(std::string_view text);
std::string sanitize_or_na(const std::optional<std::string>& text);  // unknown -> "N/A"
// The same for a message of several lines to stderr: its line breaks kept.
std::string sanitize_lines(std::string_view text);

bool is_unsafe_code_point(char32_t cp);

// Cells a code point occupies: 0 (combining), 1, or 2 (East Asian wide / emoji).
int code_point_width(char32_t cp);

// Width of sanitised UTF-8 text in terminal cells.
int display_width(std::string_view text);

// Cuts to at most `cells` cells without splitting a wide character.
std::string truncate_to_width(std::string_view text, int cells);

// Pads with spaces on the right (left-aligned text) or on the left; never truncates.
std::string pad_right(std::string_view text, int cells);
std::string pad_left(std::string_view text, int cells);

// Exactly `cells` wide: truncated, then padded on the right.
std::string fit_right(std::string_view text, int cells);

// Exactly `cells` wide, keeping the end when it must cut ("~0.0.1:19497"): where
// names differ at their end (addresses, ports, node numbers).
std::string fit_tail(std::string_view text, int cells);

}  // namespace musatop
