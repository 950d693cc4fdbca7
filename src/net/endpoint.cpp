#include "musatop/net/endpoint.hpp"

#include <arpa/inet.h>

#include <charconv>

#include "musatop/util/text.hpp"

namespace musatop::net {

std::string Endpoint::authority() const {
    const bool v6 = host.find(':') != std::string::npos;
    return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

bool is_ip_literal(std::string_view host) {
    const std::string text(host);
    unsigned char buffer[16];
    return ::inet_pton(AF_INET, text.c_str(), buffer) == 1 || ::inet_pton(AF_INET6, text.c_str(), buffer) == 1;
}

Result<Url> parse_url(std::string_view text, std::string_view what) {
    const std::string where = std::string(what) + ": ";
    Url url;
    const auto folded = text::fold_case(text.substr(0, 8));
    if (folded.rfind("http://", 0) == 0) {
        text.remove_prefix(7);
    } else if (folded.rfind("https://", 0) == 0) {
        text.remove_prefix(8);
        url.endpoint.tls = true;
    } else {
        return Error{where + "only http:// and https:// URLs are understood"};
    }
    const auto slash = text.find('/');
    std::string_view authority = text.substr(0, slash);
    if (authority.find('@') != std::string_view::npos)
        return Error{where +
                     "a user or password in the URL would show in the process list; "
                     "use the password or token file options instead"};
    url.endpoint.port = url.endpoint.tls ? 443 : 80;
    std::string_view port;
    if (!authority.empty() && authority.front() == '[') {
        const auto close = authority.find(']');
        if (close == std::string_view::npos) return Error{where + "an IPv6 address needs its closing bracket"};
        url.endpoint.host = std::string(authority.substr(1, close - 1));
        const auto rest = authority.substr(close + 1);
        if (!rest.empty() && rest.front() != ':') return Error{where + "unexpected text after the IPv6 address"};
        if (!rest.empty()) port = rest.substr(1);
        if (!is_ip_literal(url.endpoint.host)) return Error{where + "not an IPv6 address in brackets"};
    } else {
        const auto colon = authority.find(':');
        url.endpoint.host = std::string(authority.substr(0, colon));
        if (colon != std::string_view::npos) port = authority.substr(colon + 1);
    }
    if (url.endpoint.host.empty()) return Error{where + "the URL has no host"};
    if (slash == std::string_view::npos && authority.find(':') != std::string_view::npos && port.empty())
        return Error{where + "the port is empty"};
    if (!port.empty()) {
        int value = 0;
        const auto [end, error] = std::from_chars(port.data(), port.data() + port.size(), value);
        if (error != std::errc{} || end != port.data() + port.size() || value < 1 || value > 65535)
            return Error{where + "the port must be a number from 1 to 65535"};
        url.endpoint.port = value;
    }
    if (slash != std::string_view::npos) {
        std::string_view path = text.substr(slash);
        if (path.find_first_of("?# \t\r\n") != std::string_view::npos)
            return Error{where + "the URL may hold a path, but no query, fragment or spaces"};
        while (!path.empty() && path.back() == '/') path.remove_suffix(1);
        url.path = std::string(path);
    }
    return url;
}

}  // namespace musatop::net
