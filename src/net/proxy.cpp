// Which proxy, if any, a request takes: the variables curl and most tools read.
#include <algorithm>

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

// no_proxy: "*", or names and addresses separated by commas; "example.com" and
// ".example.com" both match example.com and every name under it; a ":port" is ignored.
bool bypassed(const std::string& host, std::string_view no_proxy) {
    const std::string name = text::fold_case(host);
    for (auto entry : text::split(no_proxy, ',')) {
        entry = text::trim(entry);
        if (entry == "*") return true;
        if (!entry.empty() && entry.front() == '[') entry = entry.substr(1, entry.find(']') - 1);
        else if (std::count(entry.begin(), entry.end(), ':') == 1) entry = entry.substr(0, entry.find(':'));
        while (!entry.empty() && entry.front() == '.') entry.remove_prefix(1);
        if (entry.empty()) continue;
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
                                         const std::function<const char*(const char*)>& environment) {
    const char* variable = nullptr;
    const char* value = target.tls ? first_set(environment, {"https_proxy", "HTTPS_PROXY"}, &variable)
                                   : first_set(environment, {"http_proxy"}, &variable);
    if (!value) return std::optional<Route>{};
    const char* no_proxy_name = nullptr;
    if (const char* no_proxy = first_set(environment, {"no_proxy", "NO_PROXY"}, &no_proxy_name))
        if (bypassed(target.host, no_proxy)) return std::optional<Route>{};
    std::string url = value;
    if (url.find("://") == std::string::npos) url = "http://" + url;  // "proxy:3128", as curl reads it
    // Credentials for the proxy itself may stand in the variable (never on a command line).
    std::optional<std::string> authorization;
    const auto scheme_end = url.find("://") + 3;
    const auto at = url.find('@', scheme_end);
    if (at != std::string::npos && at < url.find('/', scheme_end)) {
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
