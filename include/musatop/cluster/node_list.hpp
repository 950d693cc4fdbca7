// The nodes of the cluster view: `--nodes`, `--nodes-file` and MUSATOP_NODES, with
// hostlist brackets as Slurm and ClusterShell write them (cluster.md §4). Pure.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "musatop/util/result.hpp"

namespace musatop::cluster {

inline constexpr int kDefaultPort = 9499;
// More hosts than this in one list is a mistake (gpu[1-99999999]), not a cluster.
inline constexpr std::size_t kMaxNodes = 100000;

struct NodeAddress {
    bool https = false;
    std::string host;  // a name, an IPv4 address, or an IPv6 address without brackets
    int port = kDefaultPort;
    // How the node is named in output: "gpu01:9499", "[::1]:9499", "https://gpu01:9499".
    std::string display() const;
    // The URL of `path` ("/api/v1/snapshot") on the node.
    std::string url(std::string_view path) const;
    bool operator==(const NodeAddress&) const = default;
};

// "gpu[01-03,7]" -> gpu01 gpu02 gpu03 gpu7; groups multiply ("r[1-2]n[1-2]");
// "[1-9/2]" steps; zero padding of the lower bound is kept.
Result<std::vector<std::string>> expand_hostlist(std::string_view pattern);

// Splits at commas and whitespace outside brackets.
std::vector<std::string> split_node_list(std::string_view text);

// A whole list: every entry expanded, duplicates dropped in first-seen order. An
// error names the entry ("--nodes: 'gpu[1-': unclosed bracket").
Result<std::vector<NodeAddress>> parse_node_list(std::string_view text);

// A nodes file: one or more entries per line, blank lines and # comments ignored.
Result<std::vector<NodeAddress>> parse_nodes_file(std::string_view text);

}  // namespace musatop::cluster
