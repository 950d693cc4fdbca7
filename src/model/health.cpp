#include "musatop/model/health.hpp"

#include <cmath>
#include <cstdio>
#include <set>

namespace musatop {
namespace {

std::string number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.0f", value);
    return text;
}

std::string gib(std::int64_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GiB", static_cast<double>(bytes) / static_cast<double>(1LL << 30));
    return text;
}

std::string duration(Seconds held) {
    const auto seconds = static_cast<long long>(held.count());
    return std::to_string(seconds / 60) + "m " + std::to_string(seconds % 60) + "s";
}

bool below(const std::optional<std::int64_t>& current, const std::optional<std::int64_t>& max) {
    return current && max && *current < *max;
}

std::string device_key(const Device& device) {
    return device.uuid ? *device.uuid : "index:" + std::to_string(device.index);
}

// Who holds memory on the GPU: distinct user names, else PIDs.
std::string holders(const Snapshot& snapshot, std::int64_t index) {
    std::set<std::string> names;
    for (const auto& p : snapshot.processes)
        if (p.device_index == index) names.insert(p.username ? *p.username : "PID " + std::to_string(p.pid));
    if (names.empty()) return "no process listed";
    std::string out;
    for (const auto& name : names) out += (out.empty() ? "" : ", ") + name;
    return out;
}

bool idle_and_holding(const Device& d, const HealthThresholds& t) {
    return d.gpu_utilization_percent && *d.gpu_utilization_percent == 0 && d.memory_used_bytes &&
           *d.memory_used_bytes >= t.idle_memory_bytes;
}

// The kernel driver's own view of the GPU (/proc/driver/musa/gpuNN/status).
void driver_findings(const DriverStatus& s, std::vector<std::string>& out) {
    if (s.driver_status && *s.driver_status != "OK") out.push_back("driver status " + *s.driver_status);
    if (s.firmware_status && *s.firmware_status != "OK")
        out.push_back("firmware " + *s.firmware_status + (s.firmware_reason ? " (" + *s.firmware_reason + ")" : ""));
}

// "driver event 0x05000002 MTBIOS GPU_BIOS_TRAP, fatal, 12m 3s ago (PID 4242): text"
std::string event_finding(const DriverEvent& e, Seconds age) {
    std::string line = "driver event " + event_label(e) + ", " + to_string(e.severity.value_or(EventSeverity::notify)) +
                       ", " + duration(age) + " ago";
    if (e.pid) line += " (PID " + std::to_string(*e.pid) + ")";
    return e.text.empty() ? line : line + ": " + e.text;
}

// Warning and fatal events of the window; gen1 records carry no severity and are
// left to the details dialog.
void event_findings(Device& device, WallTime now, Seconds window) {
    if (!device.driver_events) return;
    for (const auto& e : *device.driver_events) {
        if (e.severity != EventSeverity::warning && e.severity != EventSeverity::fatal) continue;
        const Seconds age = now - WallTime(std::chrono::seconds(e.time_seconds));
        if (age <= window && age >= Seconds(-60)) device.health.push_back(event_finding(e, std::max(age, Seconds(0))));
    }
}

// A counter below its baseline was cleared (a reset or a management call).
bool any_fell(const std::vector<DriverCounter>& now, const std::vector<DriverCounter>& baseline) {
    for (const auto& counter : now)
        for (const auto& before : baseline)
            if (before.label == counter.label && counter.value < before.value) return true;
    return false;
}

// "HWR +2, FWF +1": the recovery and fault counters above their baseline (APM
// counts power-management requests, not faults).
std::string risen_counters(const std::vector<DriverCounter>& now, const std::vector<DriverCounter>& baseline) {
    std::string risen;
    for (const auto& counter : now)
        for (const auto& before : baseline)
            if (counter.label != "APM" && before.label == counter.label && counter.value > before.value)
                risen +=
                    (risen.empty() ? "" : ", ") + counter.label + " +" + std::to_string(counter.value - before.value);
    return risen;
}

}  // namespace

std::vector<std::string> device_findings(const Device& d, const HealthThresholds& t) {
    std::vector<std::string> out;
    if (d.driver) driver_findings(*d.driver, out);
    if (below(d.pcie_link_width_current, d.pcie_link_width_max))
        out.push_back("PCIe link x" + std::to_string(*d.pcie_link_width_current) + ", below its maximum x" +
                      std::to_string(*d.pcie_link_width_max));
    if (below(d.pcie_generation_current, d.pcie_generation_max) && d.gpu_utilization_percent &&
        *d.gpu_utilization_percent >= t.generation_busy_percent)
        out.push_back("PCIe gen " + std::to_string(*d.pcie_generation_current) + " while " +
                      number(*d.gpu_utilization_percent) + "% busy, below its maximum gen " +
                      std::to_string(*d.pcie_generation_max));
    if (d.power_draw_w && d.power_limit_w && *d.power_limit_w > 0 &&
        *d.power_draw_w >= t.power_at_limit_ratio * *d.power_limit_w)
        out.push_back("power draw " + number(*d.power_draw_w) + " W at its " + number(*d.power_limit_w) + " W limit");
    if (d.graphics_clock_mhz && d.graphics_clock_max_mhz && *d.graphics_clock_max_mhz > 0 &&
        d.gpu_utilization_percent && *d.gpu_utilization_percent >= t.throttle_busy_percent &&
        *d.graphics_clock_mhz < t.throttle_clock_ratio * *d.graphics_clock_max_mhz)
        out.push_back("graphics clock " + number(*d.graphics_clock_mhz) + " MHz, " +
                      number(100 * *d.graphics_clock_mhz / *d.graphics_clock_max_mhz) + "% of its " +
                      number(*d.graphics_clock_max_mhz) + " MHz maximum while " + number(*d.gpu_utilization_percent) +
                      "% busy (throttling, inferred: GMI gives no throttle reasons)");
    if (d.retired_pages_pending == true) out.push_back("retired pages pending: a GPU reset retires them");
    return out;
}

std::vector<std::string> host_findings(const Snapshot& s) {
    std::vector<std::string> out;
    for (const auto& gpu : s.untied_driver_gpus) {
        std::vector<std::string> found;
        if (gpu.status) driver_findings(*gpu.status, found);
        for (const auto& finding : found)
            out.push_back("driver " + gpu.directory + " (tied to no GPU: " + gpu.reason + "): " + finding);
    }
    const auto listed = static_cast<std::int64_t>(s.devices.size());
    if (s.json_listed_gpus && !s.devices_stale)
        out.push_back("GMI's JSON lists " + std::to_string(*s.json_listed_gpus) + " of " + std::to_string(listed) +
                      " GPUs; the other " + std::to_string(listed - *s.json_listed_gpus) +
                      " are read from its summary table (name, bus, memory and utilisation; the rest unknown)");
    if (s.attached_gpus && *s.attached_gpus > listed && !s.devices_stale)
        out.push_back("GMI counts " + std::to_string(*s.attached_gpus) + " attached GPUs but lists " +
                      std::to_string(listed) + ": " + std::to_string(*s.attached_gpus - listed) +
                      " missing (a lost card?)");
    return out;
}

void HealthMonitor::watch_driver_counters(Snapshot& snapshot, MonoTime now) {
    if (snapshot.devices_stale) return;  // the baselines stand until fresh readings come
    std::map<std::string, CounterBaseline> seen;
    for (auto& device : snapshot.devices) {
        if (!device.driver) continue;
        const std::string key = device_key(device);
        const auto& counters = device.driver->counters;
        const auto known = driver_baseline_.find(key);
        const bool anew = known == driver_baseline_.end() || any_fell(counters, known->second.counters);
        const CounterBaseline baseline = anew ? CounterBaseline{now, counters} : known->second;
        const std::string risen = risen_counters(counters, baseline.counters);
        if (!risen.empty())
            device.health.push_back("driver counters rose while watched (" + duration(now - baseline.since) +
                                    "): " + risen);
        seen[key] = baseline;
    }
    driver_baseline_ = std::move(seen);
}

void HealthMonitor::assess(Snapshot& snapshot, MonoTime now) {
    std::map<std::string, MonoTime> still_idle;
    for (auto& device : snapshot.devices) {
        device.health = device_findings(device, thresholds_);
        event_findings(device, snapshot.sampled_at, thresholds_.event_window);
        const std::string key = device_key(device);
        const auto known = idle_since_.find(key);
        // Stale readings say nothing new: the clock neither starts nor resets.
        if (snapshot.devices_stale) {
            if (known != idle_since_.end()) still_idle.insert(*known);
            continue;
        }
        if (!idle_and_holding(device, thresholds_)) continue;
        const MonoTime since = known != idle_since_.end() ? known->second : now;
        still_idle[key] = since;
        const Seconds held = now - since;
        if (held >= thresholds_.idle_held_for)
            device.health.push_back("memory held while idle: " + gib(*device.memory_used_bytes) +
                                    " in use at 0% utilisation for " + duration(held) + " (" +
                                    holders(snapshot, device.index) + ")");
    }
    idle_since_ = std::move(still_idle);
    watch_driver_counters(snapshot, now);
    snapshot.health = host_findings(snapshot);
}

}  // namespace musatop
