// Which proxy, if any, a request takes: the variables curl and most tools read.
#include <arpa/inet.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>
#include <vector>

#include "musatop/net/base64.hpp"
#include "musatop/net/http_client.hpp"
#include "musatop/util/text.hpp"

namespace musatop::net {
namespace {

const char* first_set(const std::function<const char*(const char*)>& environment,
                      std::initializer_list<const char*> names, const char** chosen) {
    for (const char* name : names) {
        const char* value = environment(name);
        if (value && *value) {
            *chosen = name;
            return value;
        }
    }
    return nullptr;
}

// An IP address as bytes (4 or 16), none for a name.
std::optional<std::vector<unsigned char>> ip_bytes(const std::string& text) {
    unsigned char bytes[16];
    if (::inet_pton(AF_INET, text.c_str(), bytes) == 1) return std::vector<unsigned char>(bytes, bytes + 4);
    if (::inet_pton(AF_INET6, text.c_str(), bytes) == 1) return std::vector<unsigned char>(bytes, bytes + 16);
    return std::nullopt;
}

// "ADDRESS/BITS" holds `host` (an IP literal), as curl 7.86+ and Go read no_proxy.
// None when the entry is no range at all.
std::optional<bool> in_range(const std::optional<std::vector<unsigned char>>& host, std::string_view entry) {
    const auto slash = entry.find('/');
    const auto network = ip_bytes(std::string(entry.substr(0, slash)));
    const std::string_view bits_text = entry.substr(slash + 1);
    unsigned bits = 0;
    const auto [end, error] = std::from_chars(bits_text.data(), bits_text.data() + bits_text.size(), bits);
    if (!network || error != std::errc{} || end != bits_text.data() + bits_text.size() || bits > network->size() * 8)
        return std::nullopt;
    if (!host || host->size() != network->size()) return false;
    for (unsigned i = 0; i < bits; ++i) {
        const unsigned char mask = static_cast<unsigned char>(0x80u >> (i % 8));
        if (((*host)[i / 8] & mask) != ((*network)[i / 8] & mask)) return false;
    }
    return true;
}

// Host names, domains and IP addresses are letters, digits, '-', '.', '_' and ':'.
bool plain_entry(std::string_view entry) {
    return std::all_of(entry.begin(), entry.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_' || c == ':';
    });
}

// no_proxy: "*", or names, addresses and CIDR ranges separated by commas;
// "example.com" and ".example.com" both match example.com and every name under it;
// a ":port" is ignored. An entry of another shape is named in `warnings`.
bool bypassed(const std::string& host, std::string_view no_proxy, std::vector<std::string>* warnings) {
    const std::string name = text::fold_case(host);
    const auto host_ip = ip_bytes(host);
    for (auto entry : text::split(no_proxy, ',')) {
        entry = text::trim(entry);
        if (entry == "*") return true;
        if (entry.find('/') != std::string_view::npos) {
            const auto inside = in_range(host_ip, entry);
            if (!inside && warnings)
                warnings->push_back("no_proxy: '" + std::string(entry) +
                                    "' is not an address range (like 10.0.0.0/8 or fd00::/8); ignored");
            if (inside.value_or(false)) return true;
            continue;
        }
        if (!entry.empty() && entry.front() == '[') entry = entry.substr(1, entry.find(']') - 1);
        else if (std::count(entry.begin(), entry.end(), ':') == 1) entry = entry.substr(0, entry.find(':'));
        while (!entry.empty() && entry.front() == '.') entry.remove_prefix(1);
        if (entry.empty()) continue;
        if (!plain_entry(entry)) {
            if (warnings)
                warnings->push_back("no_proxy: '" + std::string(entry) +
                                    "' is not understood (names, .domains, addresses and ranges are); ignored");
            continue;
        }
        const auto entry_ip = ip_bytes(std::string(entry));
        if (host_ip && entry_ip) {  // "::1" and "0:0::1" are one address
            if (*host_ip == *entry_ip) return true;
            continue;
        }
        const std::string folded = text::fold_case(entry);
        if (name == folded) return true;
        if (name.size() > folded.size() && name.compare(name.size() - folded.size(), folded.size(), folded) == 0 &&
            name[name.size() - folded.size() - 1] == '.')
            return true;
    }
    return false;
}

}  // namespace

Result<std::optional<Route>> proxy_route(const Endpoint& target,
                                         const std::function<const char*(const char*)>& environment,
                                         std::vector<std::string>* warnings) {
    const char* variable = nullptr;
    const char* value = target.tls ? first_set(environment, {"https_proxy", "HTTPS_PROXY"}, &variable)
                                   : first_set(environment, {"http_proxy"}, &variable);
    if (!value) return std::optional<Route>{};
    const char* no_proxy_name = nullptr;
    if (const char* no_proxy = first_set(environment, {"no_proxy", "NO_PROXY"}, &no_proxy_name))
        if (bypassed(target.host, no_proxy, warnings)) return std::optional<Route>{};
    std::string url = value;
    if (url.find("://") == std::string::npos) url = "http://" + url;  // "proxy:3128", as curl reads it
    // Credentials for the proxy itself may stand in the variable (never on a command line).
    std::optional<std::string> authorization;
    const auto scheme_end = url.find("://") + 3;
    // The last '@' before the path ends the credentials: a password may hold '@'
    // (curl reads it so too).
    const auto at = url.rfind('@', url.find('/', scheme_end));
    if (at != std::string::npos && at >= scheme_end) {
        const std::string user_password = url.substr(scheme_end, at - scheme_end);
        const auto colon = user_password.find(':');
        authorization = basic_authorization(user_password.substr(0, colon),
                                            colon == std::string::npos ? "" : user_password.substr(colon + 1));
        url.erase(scheme_end, at + 1 - scheme_end);
    }
    auto parsed = parse_url(url, variable);
    if (!parsed.ok()) return Error{parsed.error()};
    if (parsed->endpoint.tls) return Error{std::string(variable) + ": a proxy is reached with http://, not https://"};
    if (url.find(':', scheme_end) == std::string::npos || url.rfind(']') == url.size() - 1)
        parsed.value().endpoint.port = 1080;  // curl's default proxy port
    return std::optional<Route>{Route{target, parsed->endpoint, authorization}};
}

}  // namespace musatop::net
