// The pure half of Prometheus mode: an /api/v1/query answer into a ClusterSnapshot.
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>

#include <rapidjson/document.h>

#include "musatop/cluster/node_list.hpp"
#include "musatop/cluster/prometheus_source.hpp"
#include "musatop/model/plausible.hpp"
#include "musatop/output/metric_table.hpp"
#include "musatop/util/clock.hpp"

namespace musatop::cluster {
namespace {

// RapidJSON's DOM: an answer over 256 nodes is megabytes, read every refresh.
// Iterative, so hostile nesting costs heap rather than the stack.
using Element = rapidjson::Value;
constexpr unsigned kParseFlags = rapidjson::kParseIterativeFlag | rapidjson::kParseFullPrecisionFlag;

// The member `name` of `object`, when `object` is an object that has it.
const Element* find(const Element& object, const char* name) {
    if (!object.IsObject()) return nullptr;
    const auto found = object.FindMember(name);
    return found == object.MemberEnd() ? nullptr : &found->value;
}

// A string member of an object from outside; empty when absent, not a string,
// or when `object` is no object at all.
std::string label(const Element& object, const char* name) {
    const Element* value = find(object, name);
    return value && value->IsString() ? std::string(value->GetString(), value->GetStringLength()) : std::string();
}

std::optional<std::string> known(std::string text) {
    return text.empty() ? std::nullopt : std::optional<std::string>(std::move(text));
}

// A PromQL string literal: a job or instance name from outside, quoted and escaped.
std::string promql_string(std::string_view text) {
    std::string quoted = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\') quoted += '\\';
        if (c == '\n') quoted += "\\n";
        else quoted += c;
    }
    return quoted + "\"";
}

struct Instance {
    Snapshot snapshot;
    std::optional<double> up;
    std::optional<double> devices_at, processes_at;
    bool devices_failed = false, processes_failed = false;
    bool has_process_series = false;
    double process_count = 0;  // the sum of musatop_gpu_processes: processes exist, exported or not
    bool any_musatop = false;
    std::optional<std::string> too_large;  // a cap was passed: the node is an error
    // Where each GPU and process row is, so that every sample costs a lookup, not a
    // walk over the rows (100,000 process series took 30 s that way).
    std::map<std::int64_t, std::size_t> device_at;
    std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> process_at;
};

std::int64_t integer_label(const Element& metric, const char* name) {
    const std::string text = label(metric, name);
    std::int64_t value = 0;
    std::from_chars(text.data(), text.data() + text.size(), value);
    return value;
}

// The GPU of a sample, made on its first series; none past the cap.
Device* device(Instance& in, const Element& metric) {
    const std::int64_t index = integer_label(metric, "gpu");
    const auto found = in.device_at.find(index);
    if (found != in.device_at.end()) return &in.snapshot.devices[found->second];
    if (in.snapshot.devices.size() >= kMaxDevicesPerNode) {
        in.too_large = "more than " + std::to_string(kMaxDevicesPerNode) + " GPUs";
        return nullptr;
    }
    Device d;
    d.index = index;
    d.uuid = known(label(metric, "uuid"));
    in.device_at.emplace(index, in.snapshot.devices.size());
    in.snapshot.devices.push_back(d);
    return &in.snapshot.devices.back();
}

// The series with labels the view reads, each with what it fills in. With the GPU
// gauges of the metric table these are the whole query: Prometheus answers only
// what the view uses.
struct InstanceSeries {
    std::string_view name;
    void (*read)(Instance& in, const Element& metric, double value);
};
const std::array<InstanceSeries, 9> kInstanceSeries = {{
    {metrics::kHostInfo,
     [](Instance& in, const Element& metric, double) {
         in.snapshot.host.hostname = known(label(metric, "hostname"));
         in.snapshot.driver_version = known(label(metric, "driver_version"));
         in.snapshot.gmi_version = known(label(metric, "gmi_version"));
         in.snapshot.musa_version = known(label(metric, "musa_version"));
     }},
    {metrics::kCollectTimestamp,
     [](Instance& in, const Element& metric, double value) {
         (label(metric, "source") == "devices" ? in.devices_at : in.processes_at) = value;
     }},
    {metrics::kCollectSuccess,
     [](Instance& in, const Element& metric, double value) {
         if (value == 0) (label(metric, "source") == "devices" ? in.devices_failed : in.processes_failed) = true;
     }},
    {metrics::kGpuInfo,
     [](Instance& in, const Element& metric, double) {
         Device* d = device(in, metric);
         if (!d) return;
         d->name = known(label(metric, "name"));
         d->bus_id = known(label(metric, "bus_id"));
     }},
    {metrics::kProcessGpuMemory,
     [](Instance& in, const Element& metric, double value) {
         in.has_process_series = true;
         if (in.snapshot.processes.size() >= kMaxProcessesPerNode) {
             in.too_large = "more than " + std::to_string(kMaxProcessesPerNode) + " process rows";
             return;
         }
         GpuProcess p;
         p.device_index = integer_label(metric, "gpu");
         p.pid = integer_label(metric, "pid");
         if (!in.process_at.emplace(std::pair(p.device_index, p.pid), in.snapshot.processes.size()).second) return;
         p.device_uuid = known(label(metric, "uuid"));
         p.username = known(label(metric, "user"));
         if (std::fabs(value) < 9.2e18) p.gpu_memory_bytes = std::llround(value);
         p.status = ProcessStatus::unverified;
         in.snapshot.processes.push_back(p);
     }},
    {metrics::kProcessInfo,
     [](Instance& in, const Element& metric, double) {
         const auto found = in.process_at.find({integer_label(metric, "gpu"), integer_label(metric, "pid")});
         if (found != in.process_at.end())
             in.snapshot.processes[found->second].command = known(label(metric, "command"));
     }},
    {metrics::kHostCpu,
     [](Instance& in, const Element&, double value) {
         if (std::isfinite(value)) in.snapshot.host.cpu_percent = value * 100;
     }},
    {metrics::kHostMemoryUsed,
     [](Instance& in, const Element&, double value) {
         if (std::fabs(value) < 9.2e18) in.snapshot.host.memory_used_bytes = std::llround(value);
     }},
    {metrics::kHostMemoryTotal,
     [](Instance& in, const Element&, double value) {
         if (std::fabs(value) < 9.2e18) in.snapshot.host.memory_total_bytes = std::llround(value);
     }},
}};

void add_sample(Instance& in, const std::string& name, const Element& metric, double value) {
    in.any_musatop = true;
    for (const auto& series : kInstanceSeries)
        if (name == series.name) return series.read(in, metric, value);
    const auto* gauge = metrics::find_gpu_metric(name);
    if (gauge && gauge->derived == metrics::Derived::process_count && std::fabs(value) < 1e9) {
        in.process_count += value;
        // The agent's count: a GPU is busy by it, and free only when it is 0, even
        // where the process rows themselves are not exported.
        if (Device* d = device(in, metric)) d->process_count_reported = std::llround(value);
    }
    if (gauge && gauge->derived == metrics::Derived::health_findings && value >= 1 && value < 1e9)
        if (Device* d = device(in, metric))  // the count is all Prometheus holds; the texts are the node's
            d->health.assign(static_cast<std::size_t>(std::min(value, 64.0)),
                             "a health finding (its text is in the node's /api/v1/snapshot)");
    if (gauge && gauge->derived == metrics::Derived::none)
        if (Device* d = device(in, metric)) metrics::read_back(*gauge, *d, value);
}

NodeView node_of(const std::string& address, Instance& in, WallTime now, Seconds scrape_interval,
                 const std::map<std::string, std::string>& last_errors) {
    NodeView node;
    node.address = address;
    if (in.up && *in.up == 0) {
        node.state = NodeState::unreachable;
        const auto error = last_errors.find(address);
        node.error = "Prometheus cannot scrape it" +
                     (error != last_errors.end() && !error->second.empty() ? ": " + error->second : std::string());
        return node;
    }
    if (in.too_large) {
        node.state = NodeState::error;
        node.error = "its series exceed the view's caps: " + *in.too_large;
        return node;
    }
    Snapshot& s = in.snapshot;
    s.devices_sampled_at = in.devices_at ? wall_time_from_unix(*in.devices_at) : std::nullopt;
    s.processes_sampled_at = in.processes_at ? wall_time_from_unix(*in.processes_at) : std::nullopt;
    s.sampled_at = s.devices_sampled_at.value_or(now);
    s.devices_stale = in.devices_failed;
    // No process series is no processes when the agent counts none; when it counts
    // some, its process series are off and the list is unknown, with a hint.
    const bool not_exported = !in.has_process_series && in.process_count > 0;
    s.processes_stale = in.processes_failed || not_exported || !in.processes_at;
    if (not_exported) node.hint = "its processes are not exported (musatop serve --process-metrics)";
    std::sort(s.devices.begin(), s.devices.end(), [](const Device& a, const Device& b) { return a.index < b.index; });
    node.hostname = s.host.hostname;
    node.fetched_at = s.devices_sampled_at;
    drop_implausible(s);
    node.snapshot = std::make_shared<const Snapshot>(s);
    const Seconds age = now - s.sampled_at;
    if (!in.any_musatop) {
        node.state = NodeState::error;
        node.error = "scraped, but it exports no musatop series";
    } else if (age > 3 * scrape_interval) {
        node.state = NodeState::stale;
        char text[96];
        std::snprintf(text, sizeof text, "its data is %.0f s old (more than 3 scrape intervals)", age.count());
        node.error = text;
    } else if (in.devices_failed) {
        node.state = NodeState::stale;
        node.error = "the node reports stale device data";
    } else {
        node.state = NodeState::ok;
    }
    return node;
}

}  // namespace

std::string cluster_query(const std::string& job, const RoundScope& scope, const Selection& selection) {
    // `up` is one more name in the same selector, not `… or up{…}`: that `or` made
    // Prometheus match 31,000 series' label sets against each other, ~200 ms a query.
    // Every series costs Prometheus about 7 µs to select and encode, so the screen asks
    // only for what it draws (~66 series per 8-GPU node instead of ~125).
    std::string drawn = "up", details;
    for (const auto& series : kInstanceSeries) drawn.append("|").append(series.name);
    for (const auto& gauge : metrics::kGpuMetrics) {
        // Derived gauges are asked for too: the process count tells a busy GPU whose
        // rows are not exported, and the findings count gives the "!" marks.
        std::string& names =
            gauge.drawn || !scope.screen_only || gauge.derived != metrics::Derived::none ? drawn : details;
        names.append(names.empty() ? "" : "|").append(gauge.name);
    }
    const std::string job_label =
        "job=" + promql_string(job) + (selection.matchers.empty() ? "" : "," + selection.matchers);
    std::string query = "{__name__=~\"" + drawn + "\"," + job_label + "}";
    // The drill-down's node gets the rest. `on(__name__)` matches nothing in the left
    // side (other names), so every one of its series is kept, at ~10 ms over 256 nodes.
    if (scope.screen_only && scope.focus)
        query += " or on(__name__) {__name__=~\"" + details + "\"," + job_label + "," + selection.node_label + "=" +
                 promql_string(*scope.focus) + "}";
    return query;
}

Result<ClusterSnapshot> cluster_from_prometheus(std::string_view answer, WallTime now, Seconds scrape_interval,
                                                const std::map<std::string, std::string>& last_errors,
                                                const std::string& node_label) {
    rapidjson::Document doc;
    if (doc.Parse<kParseFlags>(answer.data(), answer.size()).HasParseError() || !doc.IsObject())
        return Error{"Prometheus answered something other than JSON"};
    if (label(doc, "status") != "success") {
        const std::string error = label(doc, "error");
        // Cut as node errors are: an error string from outside can be a megabyte.
        return Error{"Prometheus: " + (error.empty() ? std::string("query failed") : one_line(error))};
    }
    const Element* data_type = find(doc, "data");
    const std::string type = data_type ? label(*data_type, "resultType") : std::string();
    if (type != "vector")
        return Error{"Prometheus answered " + (type.empty() ? std::string("no result type") : "a " + one_line(type)) +
                     ", not the vector an instant query gives"};
    const Element* data = find(doc, "data");
    const Element* result = data ? find(*data, "result") : nullptr;
    if (!result || !result->IsArray()) return Error{"Prometheus: no vector in the answer"};
    std::vector<std::string> order;
    std::map<std::string, Instance> instances;
    for (const Element& sample : result->GetArray()) {
        const Element* found_metric = find(sample, "metric");
        const Element* value = find(sample, "value");
        if (!found_metric || !found_metric->IsObject() || !value || !value->IsArray() || value->Size() != 2 ||
            !(*value)[1].IsString())
            continue;
        const Element& metric = *found_metric;
        const std::string_view number_text((*value)[1].GetString(), (*value)[1].GetStringLength());
        const std::string instance = label(metric, node_label.c_str());
        if (instance.empty()) continue;
        if (!instances.count(instance)) {
            // The direct mode's cap, held while the answer is read: past it every
            // node would cost a snapshot (500,000 `up` series took 1 GB and 14 s).
            if (order.size() >= kMaxNodes)
                return Error{"Prometheus answered more than " + std::to_string(kMaxNodes) +
                             " nodes (the cap of the cluster view); narrow the job or add --prometheus-selector"};
            order.push_back(instance);
        }
        double number = 0;
        try {
            number = std::stod(std::string(number_text));
        } catch (const std::exception&) {
            continue;
        }
        if (!std::isfinite(number)) continue;  // "NaN", "+Inf": unknown, as an absent series
        Instance& in = instances[instance];
        const std::string name = label(metric, "__name__");
        if (name == "up") in.up = number;
        else add_sample(in, name, metric, number);
    }
    std::sort(order.begin(), order.end());
    ClusterSnapshot cluster;
    cluster.sampled_at = now;
    cluster.source = ClusterOrigin::prometheus;
    bool series = false, hints = false;
    for (const auto& address : order) {
        series = series || instances[address].has_process_series;
        cluster.nodes.push_back(node_of(address, instances[address], now, scrape_interval, last_errors));
        hints = hints || cluster.nodes.back().hint;
    }
    if (!series && hints)
        cluster.note = "no process series: run the agents with musatop serve --process-metrics to see processes here";
    return cluster;
}

std::optional<Seconds> parse_prometheus_duration(std::string_view text) {
    // Prometheus' own form: numbers with units, largest first ("1m30s", "500ms", "2h").
    static constexpr std::pair<std::string_view, double> kUnits[] = {
        {"ms", 0.001}, {"y", 365 * 86400}, {"w", 7 * 86400}, {"d", 86400}, {"h", 3600}, {"m", 60}, {"s", 1}};
    if (text.empty()) return std::nullopt;
    double total = 0;
    while (!text.empty()) {
        std::uint64_t amount = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), amount);
        if (error != std::errc{} || end == text.data()) return std::nullopt;
        text.remove_prefix(static_cast<std::size_t>(end - text.data()));
        bool matched = false;
        for (const auto& [unit, seconds] : kUnits) {
            if (!text.starts_with(unit)) continue;
            total += static_cast<double>(amount) * seconds;
            text.remove_prefix(unit.size());
            matched = true;
            break;
        }
        if (!matched) return std::nullopt;
    }
    return Seconds(total);
}

TargetsInfo parse_targets(std::string_view answer, const std::string& job, const std::string& node_label) {
    TargetsInfo info;
    rapidjson::Document doc;
    if (doc.Parse<kParseFlags>(answer.data(), answer.size()).HasParseError()) return info;
    const Element* data = find(doc, "data");
    const Element* targets = data ? find(*data, "activeTargets") : nullptr;
    if (!targets || !targets->IsArray()) return info;
    for (const Element& target : targets->GetArray()) {
        const Element* found_labels = find(target, "labels");
        if (!found_labels || !found_labels->IsObject() || label(*found_labels, "job") != job) continue;
        const Element& labels = *found_labels;
        if (const auto interval = parse_prometheus_duration(label(target, "scrapeInterval")))
            if (interval->count() > 0) info.scrape_interval = *interval;
        info.last_errors[label(labels, node_label.c_str())] = label(target, "lastError");
    }
    return info;
}

}  // namespace musatop::cluster
