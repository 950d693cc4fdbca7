// The rules musatop applies to a request head before any HTTP library sees it.
// Pure, so they are unit-tested and fuzzed on their own.
#pragma once

#include <cstddef>
#include <string_view>

namespace musatop::serve {

// Where a request head ends ("\r\n\r\n" or "\n\n"), npos while incomplete.
std::size_t find_head_end(std::string_view buffer);

// True when the head announces a body (Content-Length above 0, or Transfer-Encoding).
bool head_has_body(std::string_view head);

}  // namespace musatop::serve
