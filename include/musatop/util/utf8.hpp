// UTF-8 decoding helpers: external text arrives as arbitrary bytes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace musatop::utf8 {

// Bytes that are not valid UTF-8 (including encoded surrogates and overlongs) become U+FFFD.
std::string repair(std::string_view bytes);

// Code points of already valid UTF-8 (invalid sequences decode to U+FFFD).
std::vector<char32_t> decode(std::string_view text);

void append(std::string& out, char32_t code_point);

}  // namespace musatop::utf8
