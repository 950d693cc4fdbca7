// HTTP/1.1 requests on both ends: the request a client writes, and the head the
// agent reads, within the limits `musatop serve` applies. Pure: no sockets.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "musatop/net/endpoint.hpp"

namespace musatop::net {

struct Request {
    std::string method = "GET";
    std::string target = "/";                                  // path and query
    std::vector<std::pair<std::string, std::string>> headers;  // besides Host and Content-Length
    std::string body;
};

// The bytes of `request` to `to`: origin form, or absolute form ("GET http://h:p/x")
// when it goes through an http proxy.
std::string write_request(const Request& request, const Endpoint& to, bool absolute_form = false);
// "CONNECT host:port", the start of a tunnel through a proxy to an https server.
std::string write_connect(const Endpoint& to);

// A percent-encoded application/x-www-form-urlencoded value.
std::string form_encode(std::string_view value);

// Where a request head ends ("\r\n\r\n" or "\n\n"), npos while incomplete.
std::size_t find_head_end(std::string_view buffer);

// True when the head announces a body (Content-Length above 0, or Transfer-Encoding).
bool head_has_body(std::string_view head);

// A request head as the agent reads it; its views point into the head's text.
struct RequestHead {
    std::string_view method;
    std::string_view target;
    std::string_view path;  // the target up to '?'
    int minor_version = 1;  // HTTP/1.x
    std::vector<std::pair<std::string_view, std::string_view>> headers;
    // The value of the first header named `name` (any case), trimmed.
    std::optional<std::string_view> header(std::string_view name) const;
    // HTTP/1.1 keeps the connection unless "Connection: close"; 1.0 only with "keep-alive".
    bool keep_alive() const;
    // The client lists gzip in Accept-Encoding without q=0.
    bool accepts_gzip() const;
};

// None when the request line or a header line is malformed.
std::optional<RequestHead> parse_request_head(std::string_view head);

}  // namespace musatop::net
