// Splitting text into whitespace-separated words without copying.
#pragma once

#include <string_view>
#include <vector>

namespace musatop {

// Words separated by runs of spaces, tabs, carriage returns or newlines.
std::vector<std::string_view> split_whitespace(std::string_view text);

}  // namespace musatop
