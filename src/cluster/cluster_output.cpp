#include "musatop/cluster/cluster_output.hpp"

#include <cmath>
#include <sstream>
#include <ctime>

#include <nlohmann/json.hpp>

#include "musatop/cluster/cluster_tracker.hpp"
#include "musatop/output/format.hpp"
#include "musatop/output/json_output.hpp"
#include "musatop/output/sanitize.hpp"

namespace musatop::cluster {
namespace {

using json = nlohmann::json;

std::string dump(const json& value) { return value.dump(-1, ' ', false, json::error_handler_t::replace); }

template <typename T>
std::string optional_json(const std::optional<T>& value) {
    return value ? dump(json(*value)) : "null";
}

std::string time_json(const std::optional<WallTime>& time) {
    return time ? dump(json(format_iso8601(*time))) : "null";
}

std::string node_json(const NodeView& node, const ViewFilter& filter) {
    std::string out = "{\"address\": " + dump(json(node.address)) + ", \"hostname\": " + optional_json(node.hostname) +
                      ", \"state\": \"" + to_string(node.state) + "\", \"latency_ms\": ";
    out += node.latency_ms ? dump(json(std::round(*node.latency_ms * 1000) / 1000)) : "null";
    out += ", \"error\": " + optional_json(node.error) + ", \"fetched_at\": " + time_json(node.fetched_at);
    out += ", \"snapshot\": " + (node.snapshot ? render_json_compact(node_view(*node.snapshot, filter)) : "null");
    return out + "}";
}

std::string local_time(WallTime time) {
    const std::time_t seconds = std::chrono::system_clock::to_time_t(time);
    std::tm local{};
    ::localtime_r(&seconds, &local);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &local);
    return text;
}

std::string mib(const std::optional<std::int64_t>& bytes) {
    return bytes ? std::to_string(*bytes >> 20) : "??";
}

std::string header_line(const NodeView& node, WallTime now) {
    const std::string name = sanitize(node.hostname.value_or(node.address));
    std::string line = name + " (" + sanitize(node.address) + ")";
    if (node.snapshot) {
        line += "  " + local_time(node.snapshot->sampled_at) + "  Driver " + sanitize_or_na(node.snapshot->driver_version);
        if (node.latency_ms) line += "  " + latency_text(*node.latency_ms);
    }
    if (node.state == NodeState::ok) return line;
    std::string state = to_string(node.state);
    if (node.state == NodeState::stale && node.fetched_at)
        state = "STALE " + format_duration(std::chrono::duration<double>(now - *node.fetched_at).count());
    return line + "  " + state + ": " + sanitize(node.error.value_or(""));
}

std::string process_text(const GpuProcess& p, const TextOptions& options) {
    std::string who = sanitize(p.username.value_or("?"));
    if (options.show_pid) who += "/" + std::to_string(p.pid);
    if (options.show_cmd) who += ":" + sanitize(p.command.value_or("?"));
    return who + "(" + mib(p.gpu_memory_bytes) + "M)";
}

std::string gpu_line(const Device& d, const Snapshot& view, std::size_t name_width, const TextOptions& options) {
    const auto known = [](const std::optional<double>& v, int width) {
        return pad_left(v ? std::to_string(static_cast<long>(std::lround(*v))) : "??", width);
    };
    std::string line = "[" + std::to_string(d.index) + "] " + pad_right(sanitize_or_na(d.name), static_cast<int>(name_width)) +
                       " | " + known(d.temperature_c, 2) + "\xc2\xb0" "C, " + known(d.gpu_utilization_percent, 3) +
                       " % | " + pad_left(mib(d.memory_used_bytes), 5) + " / " + pad_left(mib(d.memory_total_bytes), 5) +
                       " MB |";
    if (options.no_processes) return line;
    for (const auto& p : view.processes)
        if (p.device_index == d.index) line += " " + process_text(p, options);
    return line;
}

}  // namespace

void write_cluster_json(std::ostream& out, const ClusterSnapshot& cluster, const ViewFilter& filter) {
    out << "{\n  \"schema_version\": 1,\n  \"kind\": \"cluster\",\n  \"sampled_at\": " << time_json(cluster.sampled_at)
        << ",\n  \"source\": " << dump(json(cluster.source)) << ",\n  \"nodes\": [";
    json errors = json(cluster.errors);
    for (std::size_t i = 0; i < cluster.nodes.size(); ++i) {
        const NodeView& node = cluster.nodes[i];
        out << (i ? ",\n    " : "\n    ") << node_json(node, filter);
        if (node.state != NodeState::ok) errors.push_back(node.address + ": " + node.error.value_or(to_string(node.state)));
    }
    out << (cluster.nodes.empty() ? "],\n" : "\n  ],\n");
    // "note" is an addition after the keys of cluster.md.
    out << "  \"errors\": " << dump(errors) << ",\n  \"note\": " << optional_json(cluster.note) << "\n}\n";
}

std::string render_cluster_json(const ClusterSnapshot& cluster, const ViewFilter& filter) {
    std::ostringstream out;
    write_cluster_json(out, cluster, filter);
    return out.str();
}

std::string render_cluster_text(const ClusterSnapshot& cluster, const ViewFilter& filter, const TextOptions& options) {
    std::string out;
    for (const auto& node : cluster.nodes) {
        out += header_line(node, cluster.sampled_at) + "\n";
        if (!node.snapshot) continue;
        const Snapshot view = node_view(*node.snapshot, filter);
        std::size_t name_width = 0;
        for (const auto& d : view.devices) name_width = std::max(name_width, sanitize_or_na(d.name).size());
        for (const auto& d : view.devices) out += gpu_line(d, view, name_width, options) + "\n";
    }
    for (const auto& error : cluster.errors) out += "ERROR: " + sanitize(error) + "\n";
    if (cluster.note) out += "NOTE: " + sanitize(*cluster.note) + "\n";
    return out;
}

}  // namespace musatop::cluster
