#include "musatop/cluster/cluster_output.hpp"

#include <cmath>
#include <sstream>
#include <ctime>

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include "musatop/cluster/cluster_tracker.hpp"
#include "musatop/output/format.hpp"
#include "musatop/output/json_output.hpp"
#include "musatop/output/sanitize.hpp"
#include "musatop/util/utf8.hpp"

namespace musatop::cluster {
namespace {

// The cluster document is streamed (1000 nodes are ~46 MB): RapidJSON's writer
// emits it as it goes, every string escaped to ASCII as the local --json is (no
// raw C1 control or bidi override from a node reaches a terminal through jq), and
// each node's snapshot comes whole from render_json_compact as a raw value.
// Pretty for one document, compact for a line of a stream (JSON Lines).
// Into a buffer, then out at once: a stream wrapper costs a virtual put a byte.
using Writer = rapidjson::PrettyWriter<rapidjson::StringBuffer, rapidjson::UTF8<>, rapidjson::ASCII<>>;
using LineWriter = rapidjson::Writer<rapidjson::StringBuffer, rapidjson::UTF8<>, rapidjson::ASCII<>>;

template <typename W>
void text(W& w, std::string_view value) {
    const std::string valid = utf8::repair(value);  // the writer refuses invalid UTF-8
    if (valid.find('\x7f') == std::string::npos) {
        w.String(valid.data(), static_cast<rapidjson::SizeType>(valid.size()));
        return;
    }
    // RapidJSON's ASCII writer leaves DEL raw, where the local --json (nlohmann's
    // ensure_ascii) escapes it: the literal is written here and DEL escaped in it.
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer, rapidjson::UTF8<>, rapidjson::ASCII<>> literal(buffer);
    literal.String(valid.data(), static_cast<rapidjson::SizeType>(valid.size()));
    std::string escaped;
    for (const char c : std::string_view(buffer.GetString(), buffer.GetSize()))
        escaped += c == '\x7f' ? std::string("\\u007F") : std::string(1, c);
    w.RawValue(escaped.data(), escaped.size(), rapidjson::kStringType);
}

template <typename W>
void optional_text(W& w, const std::optional<std::string>& value) {
    if (value) text(w, *value);
    else w.Null();
}

template <typename W>
void time_value(W& w, const std::optional<WallTime>& time) {
    if (time) text(w, format_iso8601(*time));
    else w.Null();
}

template <typename W>
void node_json(W& w, const NodeView& node, const ViewFilter& filter, const FreeRule& free) {
    w.StartObject();
    w.Key("address");
    text(w, node.address);
    w.Key("hostname");
    optional_text(w, node.hostname);
    w.Key("state");
    text(w, to_string(node.state));
    w.Key("latency_ms");
    if (node.latency_ms && std::isfinite(*node.latency_ms)) w.Double(std::round(*node.latency_ms * 1000) / 1000);
    else w.Null();
    w.Key("error");
    optional_text(w, node.error);
    w.Key("fetched_at");
    time_value(w, node.fetched_at);
    w.Key("snapshot");
    if (node.snapshot) {
        const std::string snapshot = render_json_compact(node_view(*node.snapshot, filter));
        w.RawValue(snapshot.data(), snapshot.size(), rapidjson::kObjectType);
    } else {
        w.Null();
    }
    w.Key("free_gpus");
    const auto indices = node.snapshot ? free_gpu_indices(*node.snapshot, filter, free) : std::nullopt;
    if (indices) {
        w.StartArray();
        for (const auto index : *indices) w.Int64(index);
        w.EndArray();
    } else {
        w.Null();
    }
    w.EndObject();
}

std::string header_line(const NodeView& node, WallTime now, const ViewFilter& filter, const TextOptions& options) {
    const FreeRule& free = options.free;
    const std::string name = sanitize(node.hostname.value_or(node.address));
    std::string line = options.style.paint(Ink::bold, name) + " (" + sanitize(node.address) + ")";
    if (node.snapshot) {
        line += "  " + format_local_seconds(node.snapshot->sampled_at) + "  Driver " +
                sanitize_or_na(node.snapshot->driver_version);
        if (node.latency_ms && !options.no_latency) line += "  " + latency_text(*node.latency_ms);
        if (const auto label = free_label(count_free(*node.snapshot, filter, free)); !label.empty())
            line += "  " + label;
    }
    if (node.state == NodeState::ok) return node.hint ? line + "  " + sanitize(*node.hint) : line;
    std::string state = to_string(node.state);
    if (node.state == NodeState::stale && node.fetched_at)
        state = "STALE " + format_duration(std::chrono::duration<double>(now - *node.fetched_at).count());
    return line + "  " + options.style.paint(Ink::error, state + ": " + sanitize(node.error.value_or("")));
}

}  // namespace

std::string free_label(const FreeCount& count) {
    if (count.unknown) return "";
    return "free " + std::to_string(count.free) + "/" + std::to_string(count.free + count.in_use);
}

namespace {

template <typename W>
void cluster_document(W& w, const ClusterSnapshot& cluster, const ViewFilter& filter, const FreeRule& free) {
    w.StartObject();
    w.Key("schema_version");
    w.Int(1);
    w.Key("kind");
    w.String("cluster");
    w.Key("sampled_at");
    time_value(w, cluster.sampled_at);
    w.Key("source");
    text(w, origin_name(cluster.source));
    w.Key("nodes");
    w.StartArray();
    std::vector<std::string> errors = cluster.errors;
    for (const NodeView& node : cluster.nodes) {
        node_json(w, node, filter, free);
        if (node.state != NodeState::ok)
            errors.push_back(node.address + ": " + node.error.value_or(to_string(node.state)));
    }
    w.EndArray();
    w.Key("errors");
    w.StartArray();
    for (const auto& error : errors) text(w, error);
    w.EndArray();
    // "note" is an addition after the keys of cluster.md.
    w.Key("note");
    optional_text(w, cluster.note);
    w.EndObject();
}

}  // namespace

void write_cluster_json(std::ostream& out, const ClusterSnapshot& cluster, const ViewFilter& filter,
                        const FreeRule& free, bool one_line) {
    rapidjson::StringBuffer stream;
    if (one_line) {
        LineWriter w(stream);
        cluster_document(w, cluster, filter, free);
    } else {
        Writer w(stream);
        w.SetIndent(' ', 2);
        cluster_document(w, cluster, filter, free);
    }
    out.write(stream.GetString(), static_cast<std::streamsize>(stream.GetSize()));
    out << '\n';
}

std::string render_cluster_json(const ClusterSnapshot& cluster, const ViewFilter& filter, const FreeRule& free) {
    std::ostringstream out;
    write_cluster_json(out, cluster, filter, free);
    return out.str();
}

std::string render_cluster_text(const ClusterSnapshot& cluster, const ViewFilter& filter, const TextOptions& options) {
    std::string out;
    for (const auto& node : cluster.nodes) {
        out += header_line(node, cluster.sampled_at, filter, options) + "\n";
        if (!node.snapshot) continue;
        const Snapshot view = node_view(*node.snapshot, filter);
        for (const auto& line : gpustat_lines(view, options.style)) out += line + "\n";
        // Findings after the node's GPU lines, as the local --once prints its HEALTH lines.
        for (const auto& finding : view.health)
            out += options.style.paint(Ink::warning, "  ! " + sanitize(finding)) + "\n";
        for (const auto& d : view.devices)
            for (const auto& finding : d.health)
                out += options.style.paint(Ink::warning, "  ! [" + std::to_string(d.index) + "] " + sanitize(finding)) +
                       "\n";
    }
    for (const auto& error : cluster.errors) out += "ERROR: " + sanitize(error) + "\n";
    if (cluster.note) out += "NOTE: " + sanitize(*cluster.note) + "\n";
    return out;
}

}  // namespace musatop::cluster
