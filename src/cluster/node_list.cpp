#include "musatop/cluster/node_list.hpp"

#include <algorithm>
#include <charconv>
#include <unordered_set>

#include "musatop/net/endpoint.hpp"
#include "musatop/util/text.hpp"

namespace musatop::cluster {
namespace {

struct Invalid {
    std::string message;
};

bool is_separator(char c) { return c == ',' || text::is_space(c); }

long number(std::string_view digits, std::string_view pattern) {
    long value = 0;
    if (digits.empty() || digits.size() > 9 || !text::all_digits(digits))
        throw Invalid{"'" + std::string(pattern) + "': '" + std::string(digits) + "' is not a number"};
    std::from_chars(digits.data(), digits.data() + digits.size(), value);
    return value;
}

std::string padded(long value, std::size_t width) {
    std::string digits = std::to_string(value);
    if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
    return digits;
}

// "01-16,20,1-9/2" -> the numbers as text, zero padding from each lower bound.
std::vector<std::string> expand_ranges(std::string_view ranges, std::string_view pattern) {
    std::vector<std::string> out;
    for (const auto part : text::split(ranges, ',')) {
        std::string_view range = part;
        long step = 1;
        if (const auto slash = range.find('/'); slash != std::string_view::npos) {
            step = number(range.substr(slash + 1), pattern);
            range = range.substr(0, slash);
            if (step < 1) throw Invalid{"'" + std::string(pattern) + "': a step must be 1 or more"};
        }
        const auto dash = range.find('-');
        if (step != 1 && dash == std::string_view::npos)  // as ClusterShell: steps go with ranges
            throw Invalid{"'" + std::string(pattern) + "': a step needs a range (" + std::string(part) + ")"};
        const std::string_view low_text = range.substr(0, dash);
        const long low = number(low_text, pattern);
        const long high = dash == std::string_view::npos ? low : number(range.substr(dash + 1), pattern);
        if (high < low)
            throw Invalid{"'" + std::string(pattern) + "': range " + std::string(range) + " runs backwards"};
        if (static_cast<std::size_t>((high - low) / step) >= kMaxNodes)
            throw Invalid{"'" + std::string(pattern) + "': more than " + std::to_string(kMaxNodes) + " hosts"};
        const std::size_t width = low_text.size() > 1 && low_text.front() == '0' ? low_text.size() : 0;
        for (long n = low; n <= high; n += step) out.push_back(padded(n, width));
    }
    return out;
}

std::vector<std::string> expand(std::string_view pattern) {
    std::vector<std::string> hosts = {""};
    std::size_t at = 0;
    while (at < pattern.size()) {
        const auto open = pattern.find('[', at);
        const auto stray = pattern.find(']', at);
        if (stray != std::string_view::npos && (open == std::string_view::npos || stray < open))
            throw Invalid{"'" + std::string(pattern) + "': ']' without '['"};
        const std::string_view literal =
            pattern.substr(at, open == std::string_view::npos ? std::string_view::npos : open - at);
        for (auto& host : hosts) host += literal;
        if (open == std::string_view::npos) break;
        const auto close = pattern.find(']', open);
        if (close == std::string_view::npos) throw Invalid{"'" + std::string(pattern) + "': unclosed bracket"};
        const auto values = expand_ranges(pattern.substr(open + 1, close - open - 1), pattern);
        if (hosts.size() * values.size() > kMaxNodes)
            throw Invalid{"'" + std::string(pattern) + "': more than " + std::to_string(kMaxNodes) + " hosts"};
        std::vector<std::string> next;
        for (const auto& host : hosts)
            for (const auto& value : values) next.push_back(host + value);
        hosts = std::move(next);
        at = close + 1;
    }
    for (const auto& host : hosts)
        if (host.empty()) throw Invalid{"'" + std::string(pattern) + "': an empty host name"};
    return hosts;
}

bool host_chars_ok(std::string_view host) {
    return std::all_of(host.begin(), host.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_';
    });
}

int port_of(std::string_view text, std::string_view entry) {
    const long port = text.empty() || !text::all_digits(text) || text.size() > 5 ? -1 : number(text, entry);
    if (port < 1 || port > 65535) throw Invalid{"'" + std::string(entry) + "': the port must be 1 to 65535"};
    return static_cast<int>(port);
}

// One entry: host, host:port, [v6]:port, http(s)://host[:port][/].
std::vector<NodeAddress> parse_entry(std::string_view entry) {
    NodeAddress base;
    std::string_view rest = entry;
    if (rest.starts_with("https://")) {
        base.https = true;
        rest.remove_prefix(8);
    } else if (rest.starts_with("http://")) {
        rest.remove_prefix(7);
    } else if (rest.find("://") != std::string_view::npos) {
        throw Invalid{"'" + std::string(entry) + "': only http:// and https:// are understood"};
    }
    // Credentials never belong in a node's address (the process list shows it),
    // and the message that refuses them must not show them either.
    if (const auto at = rest.rfind('@'); at != std::string_view::npos)
        throw Invalid{"'" + std::string(entry.substr(0, entry.size() - rest.size())) + "…@" +
                      std::string(rest.substr(at + 1)) +
                      "': a user or password in a node's address would show in the process list; "
                      "use --node-user and --node-password-file"};
    if (rest.ends_with("/")) rest.remove_suffix(1);
    int depth = 0;  // a '/' inside brackets is a step
    for (char c : rest) {
        depth += c == '[' ? 1 : (c == ']' ? -1 : 0);
        if (c == '/' && depth == 0) throw Invalid{"'" + std::string(entry) + "': a path is not allowed"};
    }
    // An IPv6 literal: brackets with a colon inside, then an optional port.
    if (rest.starts_with('[') && rest.find(':') < rest.find(']')) {
        const auto close = rest.find(']');
        base.host = std::string(rest.substr(1, close - 1));
        // "[foo:bar]" is no address: never looked up as a name.
        if (close == std::string_view::npos || !net::is_ip_literal(base.host))
            throw Invalid{"'" + std::string(entry) + "': '" + base.host + "' in brackets is not an IPv6 address"};
        const auto after = rest.substr(close + 1);
        if (!after.empty()) {
            if (after.front() != ':') throw Invalid{"'" + std::string(entry) + "': expected :PORT after the address"};
            base.port = port_of(after.substr(1), entry);
        }
        return {base};
    }
    // Brackets may stand in the host and in the port ("sim:[20000-20999]").
    std::vector<NodeAddress> out;
    for (const auto& expanded : expand(rest)) {
        NodeAddress node = base;
        std::string_view host = expanded;
        if (const auto colon = host.rfind(':'); colon != std::string_view::npos) {
            node.port = port_of(host.substr(colon + 1), entry);
            host = host.substr(0, colon);
        }
        if (host.empty() || !host_chars_ok(host))
            throw Invalid{"'" + std::string(entry) + "': '" + std::string(host) + "' is not a host name"};
        // Digits and dots only: an IPv4 address or nothing (127.2.300.4 is not looked up in DNS).
        if (host.find_first_not_of("0123456789.") == std::string_view::npos && !net::is_ip_literal(host))
            throw Invalid{"'" + std::string(entry) + "': '" + std::string(host) + "' is not an IPv4 address"};
        node.host = std::string(host);
        out.push_back(std::move(node));
    }
    return out;
}

}  // namespace

std::string NodeAddress::display() const {
    const std::string host_text = host.find(':') != std::string::npos ? "[" + host + "]" : host;
    return (https ? "https://" : "") + host_text + ":" + std::to_string(port);
}

std::string NodeAddress::url(std::string_view path) const {
    const std::string host_text = host.find(':') != std::string::npos ? "[" + host + "]" : host;
    return (https ? "https://" : "http://") + host_text + ":" + std::to_string(port) + std::string(path);
}

Result<std::vector<std::string>> expand_hostlist(std::string_view pattern) {
    try {
        return expand(pattern);
    } catch (const Invalid& invalid) {
        return Error{invalid.message};
    }
}

std::vector<std::string> split_node_list(std::string_view list) {
    std::vector<std::string> entries;
    std::string current;
    int depth = 0;
    for (char c : list) {
        if (c == '[') ++depth;
        if (c == ']') depth = std::max(0, depth - 1);
        if (depth == 0 && is_separator(c)) {
            if (!current.empty()) entries.push_back(std::move(current));
            current.clear();
        } else {
            current += c;
        }
    }
    if (!current.empty()) entries.push_back(std::move(current));
    return entries;
}

Result<std::vector<NodeAddress>> parse_node_list(std::string_view list) {
    std::vector<NodeAddress> nodes;
    std::unordered_set<std::string> seen;  // linear in the list, whatever its length
    try {
        for (const auto& entry : split_node_list(list))
            for (auto& node : parse_entry(entry)) {
                if (!seen.insert(node.display()).second) continue;
                if (nodes.size() == kMaxNodes) throw Invalid{"more than " + std::to_string(kMaxNodes) + " nodes"};
                nodes.push_back(std::move(node));
            }
    } catch (const Invalid& invalid) {
        return Error{invalid.message};
    }
    return nodes;
}

Result<std::vector<NodeAddress>> parse_nodes_file(std::string_view file) {
    std::string list;
    for (auto line : text::split_lines(file)) {
        if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
        list += std::string(line) + "\n";
    }
    return parse_node_list(list);
}

}  // namespace musatop::cluster
