#include "musatop/serve/metrics.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <optional>
#include <set>

#include "exposition.hpp"
#include "musatop/output/metric_table.hpp"
#include "musatop/output/sanitize.hpp"
#include "musatop/util/version.hpp"

namespace musatop::serve {
namespace {

constexpr int kCommandCells = 64;

double unix_seconds(WallTime t) { return std::chrono::duration<double>(t.time_since_epoch()).count(); }

void write_collect_families(std::string& out, const MetricsInput& in) {
    Family success(metrics::kCollectSuccess, "gauge", "1 when the source's last round succeeded (data not stale).");
    Family stamp(metrics::kCollectTimestamp, "gauge", "Unix time of the source's last successful sample.");
    Family duration(metrics::kCollectDuration, "gauge", "Wall time of the last mthreads-gmi call, in seconds.");
    Family errors(metrics::kCollectErrors, "counter", "Failed rounds of the source since start.");
    const Snapshot* s = in.snapshot;
    struct SourceRow {
        const char* name;
        bool stale;
        std::optional<WallTime> at;
        std::optional<Seconds> took;
        std::uint64_t failures;
    };
    const std::array<SourceRow, 2> rows = {{
        {"devices", !s || s->devices_stale, s ? s->devices_sampled_at : std::nullopt,
         s ? s->collect_durations.devices : std::nullopt, in.counts.device_failures},
        {"processes", !s || s->processes_stale, s ? s->processes_sampled_at : std::nullopt,
         s ? s->collect_durations.processes : std::nullopt, in.counts.process_failures},
    }};
    for (const auto& row : rows) {
        const Labels labels = {{"source", row.name}};
        success.add(labels, row.stale ? 0 : 1);
        if (row.at) stamp.add(labels, unix_seconds(*row.at));
        if (row.took) duration.add(labels, row.took->count());
        errors.add(labels, static_cast<double>(row.failures));
    }
    success.write(out);
    stamp.write(out);
    duration.write(out);
    errors.write(out);
}

void write_process_families(std::string& out, const MetricsInput& in, const Snapshot& s) {
    Family memory(metrics::kProcessGpuMemory, "gauge", "GPU memory used by the process, in bytes.");
    Family info(metrics::kProcessInfo, "gauge", "A process on a GPU, with its command line (cut to 64 cells).");
    std::set<std::pair<std::int64_t, std::int64_t>> seen;  // (gpu, pid): one series each
    for (const auto& p : s.processes) {
        if (!seen.insert({p.device_index, p.pid}).second) continue;
        Labels labels = {{"gpu", std::to_string(p.device_index)},
                         {"uuid", label_value(p.device_uuid.value_or(""))},
                         {"pid", std::to_string(p.pid)},
                         {"user", label_value(p.username.value_or(""))}};
        if (p.gpu_memory_bytes) memory.add(labels, static_cast<double>(*p.gpu_memory_bytes));
        if (in.processes == ProcessMetrics::with_command) {
            const auto job = p.attribution.slurm_job_id;
            labels.emplace_back("slurm_job", job ? std::to_string(*job) : std::string());
            labels.emplace_back("command",
                                label_value(truncate_to_width(sanitize(p.command.value_or("")), kCommandCells)));
            info.add(labels, 1);
        }
    }
    memory.write(out);
    info.write(out);
}

void write_host_families(std::string& out, const Snapshot& s) {
    Family host(metrics::kHostInfo, "gauge", "Always 1; the host and its GPU software versions in labels.");
    host.add({{"hostname", label_value(s.host.hostname.value_or(""))},
              {"driver_version", label_value(s.driver_version.value_or(""))},
              {"gmi_version", label_value(s.gmi_version.value_or(""))},
              {"musa_version", label_value(s.musa_version.value_or(""))}},
             1);
    host.write(out);
    Family host_health(metrics::kHostHealthFindings, "gauge",
                       "Host-wide health findings, such as a GPU GMI counts but cannot list (docs/health.md).");
    if (!s.devices_stale) host_health.add({}, static_cast<double>(s.health.size()));
    host_health.write(out);
    const auto gauge = [&](std::string_view name, const char* help, std::optional<double> value) {
        Family family(name, "gauge", help);
        if (value && std::isfinite(*value)) family.add({}, *value);
        family.write(out);
    };
    const auto& h = s.host;
    gauge(metrics::kHostCpu, "Host CPU utilisation over the last interval, 0 to 1.",
          h.cpu_percent ? std::optional(*h.cpu_percent / 100) : std::nullopt);
    gauge(metrics::kHostMemoryUsed, "Host memory in use (total less available), in bytes.",
          h.memory_used_bytes ? std::optional<double>(static_cast<double>(*h.memory_used_bytes)) : std::nullopt);
    gauge(metrics::kHostMemoryTotal, "Host memory size, in bytes.",
          h.memory_total_bytes ? std::optional<double>(static_cast<double>(*h.memory_total_bytes)) : std::nullopt);
    gauge(metrics::kHostGpusAttached, "GPUs GMI counts as attached (more than it lists: a lost card).",
          s.attached_gpus && !s.devices_stale ? std::optional<double>(static_cast<double>(*s.attached_gpus))
                                              : std::nullopt);
}

}  // namespace

std::string label_value(std::string_view text) {
    std::string out;
    for (char c : sanitize(text)) {
        if (c == '\\') out += "\\\\";
        else if (c == '"') out += "\\\"";
        else if (c == '\n') out += "\\n";
        else out += c;
    }
    return out;
}

bool devices_too_stale(const Snapshot& snapshot, Seconds interval, WallTime now) {
    if (!snapshot.devices_stale) return false;
    if (!snapshot.devices_sampled_at) return true;
    return now - *snapshot.devices_sampled_at > 3 * interval;
}

std::string render_metrics(const MetricsInput& in) {
    std::string out;
    Family build(metrics::kBuildInfo, "gauge", "Always 1; the musatop version in a label.");
    build.add({{"version", label_value(kVersion)}}, 1);
    build.write(out);
    write_collect_families(out, in);
    if (!in.snapshot) return out;
    const Snapshot& s = *in.snapshot;

    write_host_families(out, s);

    Family info(metrics::kGpuInfo, "gauge", "Always 1; a GPU's identity in labels.");
    for (const auto& d : s.devices)
        info.add({{"gpu", std::to_string(d.index)},
                  {"uuid", label_value(d.uuid.value_or(""))},
                  {"name", label_value(d.name.value_or(""))},
                  {"bus_id", label_value(d.bus_id.value_or(""))}},
                 1);
    info.write(out);

    const bool values = !devices_too_stale(s, in.interval, in.now);
    for (const auto& gauge : metrics::kGpuMetrics) {
        Family family(gauge.name, "gauge", gauge.help);
        for (const auto& d : s.devices) {
            if (!values) break;
            if (gauge.derived == metrics::Derived::none) {
                if (const auto v = metrics::series_value(gauge, d)) family.add(gpu_labels(d), *v);
            } else if (gauge.derived == metrics::Derived::health_findings) {
                family.add(gpu_labels(d), static_cast<double>(d.health.size()));
            } else if (!s.processes_stale) {
                double count = 0;
                for (const auto& p : s.processes) count += p.device_index == d.index ? 1 : 0;
                family.add(gpu_labels(d), count);
            }
        }
        family.write(out);
    }
    const bool process_series = in.processes != ProcessMetrics::off && !s.processes_stale;
    if (values) write_driver_families(out, s, process_series);
    if (process_series) write_process_families(out, in, s);
    return out;
}

}  // namespace musatop::serve
