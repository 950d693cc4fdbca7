// gzip for the agent's answers (zlib), for clients that ask with Accept-Encoding.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace musatop::net {

// The gzip member of `bytes`; none only when zlib fails (out of memory).
std::optional<std::string> gzip_compress(std::string_view bytes);
// The text of a gzip member, at most `max_bytes` of it; none when damaged or larger.
std::optional<std::string> gzip_decompress(std::string_view bytes, std::size_t max_bytes);

}  // namespace musatop::net
