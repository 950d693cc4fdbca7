#include "musatop/serve/listen_address.hpp"

#include <charconv>

namespace musatop::serve {

std::string ListenAddress::display() const {
    const std::string port_text = ":" + std::to_string(port);
    if (host.empty()) return "[::]" + port_text + " (all addresses)";
    return (host.find(':') != std::string::npos ? "[" + host + "]" : host) + port_text;
}

Result<ListenAddress> parse_listen_address(std::string_view text) {
    const std::string shown(text);
    ListenAddress address;
    std::string_view port;
    if (!text.empty() && text.front() == '[') {
        const auto close = text.find(']');
        if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ':')
            return Error{"invalid listen address '" + shown + "' (expected [IPv6]:PORT)"};
        address.host = std::string(text.substr(1, close - 1));
        if (address.host.empty()) return Error{"invalid listen address '" + shown + "': empty IPv6 address"};
        port = text.substr(close + 2);
    } else {
        const auto colon = text.rfind(':');
        if (colon == std::string_view::npos)
            return Error{"invalid listen address '" + shown + "' (expected HOST:PORT, [IPv6]:PORT or :PORT)"};
        address.host = std::string(text.substr(0, colon));
        if (address.host.find(':') != std::string::npos)
            return Error{"invalid listen address '" + shown + "': write IPv6 addresses in brackets, [::1]:9499"};
        port = text.substr(colon + 1);
    }
    int value = 0;
    const auto [end, error] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (port.empty() || error != std::errc{} || end != port.data() + port.size() || value < 1 || value > 65535)
        return Error{"invalid listen address '" + shown + "': the port must be 1 to 65535"};
    address.port = value;
    return address;
}

}  // namespace musatop::serve
