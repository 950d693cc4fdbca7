// The driver's families of /metrics: what /proc/driver/musa says of each GPU, beside
// GMI's series and never in place of them. Unknown values are omitted series.
#include <set>

#include "exposition.hpp"
#include "musatop/output/metric_table.hpp"
#include "musatop/serve/metrics.hpp"

namespace musatop::serve {
namespace {

Labels with(Labels labels, std::string_view name, std::string value) {
    labels.emplace_back(name, std::move(value));
    return labels;
}

void write_status_families(std::string& out, const Snapshot& s) {
    Family driver(metrics::kDriverStatus, "gauge",
                  "1 when the driver's status for the GPU is OK, else 0; the status word in a label.");
    Family firmware(metrics::kFirmwareStatus, "gauge",
                    "1 when the GPU's firmware status is OK, else 0; the status and its reason in labels.");
    Family counters(metrics::kDriverCounter, "counter",
                    "The driver's recovery and error counters (HWR, CRR, SLR, WGP, TRP, FWF, APM, Server Errors).");
    Family overall(metrics::kDriverUtilization, "gauge",
                   "GPU utilisation as the driver reports it (status file), 0 to 1; GMI's is a separate series.");
    Family engines(metrics::kDriverEngineUtilization, "gauge",
                   "Utilisation of one engine as the driver labels it (status file), 0 to 1.");
    for (const auto& d : s.devices) {
        if (!d.driver) continue;
        const DriverStatus& st = *d.driver;
        const Labels labels = gpu_labels(d);
        if (st.driver_status)
            driver.add(with(labels, "status", label_value(*st.driver_status)), *st.driver_status == "OK" ? 1 : 0);
        if (st.firmware_status)
            firmware.add(with(with(labels, "status", label_value(*st.firmware_status)), "reason",
                              label_value(st.firmware_reason.value_or(""))),
                         *st.firmware_status == "OK" ? 1 : 0);
        for (const auto& counter : st.counters)
            counters.add(with(labels, "counter", label_value(counter.label)), static_cast<double>(counter.value));
        if (st.overall_utilization_percent) overall.add(labels, *st.overall_utilization_percent / 100);
        for (const auto& engine : st.engines)
            if (engine.percent) engines.add(with(labels, "engine", label_value(engine.label)), *engine.percent / 100);
    }
    for (const Family* family : {&driver, &firmware, &counters, &overall, &engines}) family->write(out);
}

// Totals since the agent started (model/event_tally.hpp), so the counter only rises
// while the ring wraps; the newest time lets a first scrape after a fault alert
// without increase().
void write_event_families(std::string& out, const Snapshot& s) {
    Family events(metrics::kXidEvents, "counter",
                  "Driver events (event_report) of the GPU by id and severity, since the agent started.");
    Family last(metrics::kXidLastTimestamp, "gauge", "Unix time of the GPU's newest driver event of the id.");
    for (const auto& d : s.devices) {
        std::set<std::uint32_t> stamped;
        for (const auto& total : d.driver_event_totals) {
            const Labels labels = with(gpu_labels(d), "xid", xid_text(total.id));
            const char* severity = total.severity ? to_string(*total.severity) : "";
            events.add(with(labels, "severity", severity), static_cast<double>(total.count));
            if (!stamped.insert(total.id).second) continue;  // one time per id, the newest of its severities
            std::int64_t newest = 0;
            for (const auto& other : d.driver_event_totals)
                if (other.id == total.id) newest = std::max(newest, other.last_time_seconds);
            last.add(labels, static_cast<double>(newest));
        }
    }
    events.write(out);
    last.write(out);
}

}  // namespace

void write_driver_families(std::string& out, const Snapshot& s, bool process_series) {
    write_status_families(out, s);
    write_event_families(out, s);
    if (!process_series) return;
    Family util(metrics::kProcessGpuUtilization, "gauge",
                "GPU utilisation by the process as the driver reports it (proc_util, --process-util), 0 to 1.");
    std::set<std::pair<std::int64_t, std::int64_t>> seen;
    for (const auto& p : s.processes) {
        if (!p.gpu_utilization_percent || !seen.insert({p.device_index, p.pid}).second) continue;
        util.add({{"gpu", std::to_string(p.device_index)},
                  {"uuid", label_value(p.device_uuid.value_or(""))},
                  {"pid", std::to_string(p.pid)},
                  {"user", label_value(p.username.value_or(""))}},
                 *p.gpu_utilization_percent / 100);
    }
    util.write(out);
}

}  // namespace musatop::serve
