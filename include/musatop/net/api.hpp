// The agent's HTTP surface as both of its ends name it: `musatop serve` answers
// these paths, the cluster view asks for them (cluster.md §3 fixes the names).
#pragma once

#include <string_view>

namespace musatop::net {

inline constexpr std::string_view kSnapshotPath = "/api/v1/snapshot";
inline constexpr std::string_view kMetricsPath = "/metrics";
inline constexpr std::string_view kHealthPath = "/healthz";
inline constexpr std::string_view kIndexPath = "/";

inline constexpr std::string_view kJsonType = "application/json";
inline constexpr std::string_view kMetricsType = "text/plain; version=0.0.4; charset=utf-8";
inline constexpr std::string_view kTextType = "text/plain; charset=utf-8";
inline constexpr std::string_view kHtmlType = "text/html; charset=utf-8";

inline constexpr int kDefaultAgentPort = 9499;

}  // namespace musatop::net
