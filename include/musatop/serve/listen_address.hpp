// `--listen`: HOST:PORT, [IPv6]:PORT, or :PORT for every address. Pure.
#pragma once

#include <string>
#include <string_view>

#include "musatop/util/result.hpp"

namespace musatop::serve {

inline constexpr const char* kDefaultListen = "127.0.0.1:9499";

struct ListenAddress {
    std::string host;  // empty: every address (IPv6 and IPv4)
    int port = 0;
    std::string display() const;  // for messages: "127.0.0.1:9499", "[::1]:9499", "[::]:9499 (all addresses)"
};

Result<ListenAddress> parse_listen_address(std::string_view text);

}  // namespace musatop::serve
