// Where a request goes: scheme, host and port, and the URLs musatop is given for
// Prometheus and proxies. Pure.
#pragma once

#include <string>
#include <string_view>

#include "musatop/util/result.hpp"

namespace musatop::net {

struct Endpoint {
    bool tls = false;
    std::string host;  // a name, an IPv4 address, or an IPv6 address without brackets
    int port = 0;
    // "gpu01:9499", "[::1]:9499": the Host header and a CONNECT target.
    std::string authority() const;
    bool operator==(const Endpoint&) const = default;
};

struct Url {
    Endpoint endpoint;
    std::string path;  // "" or "/prefix" without the trailing slash
};

// "http(s)://host[:port][/path]"; `what` names the flag in errors. A user or
// password in the URL is refused (it would show in `ps` and in every message),
// and the error does not repeat it.
Result<Url> parse_url(std::string_view text, std::string_view what);

// True for a literal IPv4 or IPv6 address (no name to look up or to verify).
bool is_ip_literal(std::string_view host);

}  // namespace musatop::net
