// The immutable result of one collection round: what every output reads.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "musatop/model/attribution.hpp"
#include "musatop/model/driver_info.hpp"
#include "musatop/util/clock.hpp"

namespace musatop {

// WallTime and MonoTime: musatop/util/clock.hpp

struct Device {
    std::int64_t index = 0;
    std::optional<std::string> uuid;
    std::optional<std::string> name;
    std::optional<std::string> bus_id;
    std::optional<double> gpu_utilization_percent;
    // GMI's memory-controller utilisation, not occupancy.
    std::optional<double> memory_utilization_percent;
    std::optional<std::int64_t> memory_used_bytes;
    std::optional<std::int64_t> memory_total_bytes;
    std::optional<std::int64_t> memory_free_bytes;
    std::optional<double> temperature_c;
    std::optional<double> power_draw_w;
    std::optional<double> power_limit_w;
    std::optional<std::string> power_limit_reason;
    std::optional<double> graphics_clock_mhz;
    std::optional<double> memory_clock_mhz;
    // PCIe link: generation and width (lanes), current and the most the link allows.
    std::optional<std::int64_t> pcie_generation_current;
    std::optional<std::int64_t> pcie_generation_max;
    std::optional<std::int64_t> pcie_link_width_current;
    std::optional<std::int64_t> pcie_link_width_max;
    std::optional<double> encoder_utilization_percent;
    std::optional<double> decoder_utilization_percent;
    std::optional<double> fan_speed_percent;  // the first fan GMI reports a speed for
    std::optional<double> graphics_clock_max_mhz;
    std::optional<double> memory_clock_max_mhz;
    std::optional<std::string> performance_state;  // "P0"
    std::optional<std::string> ecc_mode;           // GMI's text: "On-die, EDC"
    std::optional<std::int64_t> retired_pages_single_bit;
    std::optional<std::int64_t> retired_pages_double_bit;
    std::optional<bool> retired_pages_pending;  // pages waiting for a reset to be retired
    std::optional<std::string> serial_number;
    std::optional<std::string> bios_version;  // GMI's "MTBios Version"
    // Findings of the health rules (model/health.hpp); empty when none apply.
    std::vector<std::string> health;
    // A remote agent's musatop_gpu_processes, read through Prometheus where its
    // process rows are not exported: busy when above 0 (not in the JSON).
    std::optional<std::int64_t> process_count_reported;
    // The kernel driver's own `status` for this GPU (/proc/driver/musa/gpuNN, tied to
    // it by PCI address); none where the driver has no such file or it cannot be tied.
    // Shown in the GPU details and on the GPU's line, judged by the health rules.
    std::optional<DriverStatus> driver;
    // Why `driver` or the ring is unknown for a GPU the driver has a gpuNN for
    // ("status: Invalid argument", "event_report is off (enable_event_report=0)").
    std::optional<std::string> driver_reason;
    std::optional<std::string> driver_events_reason;
    // The events of its driver ring (`event_report`), each once, oldest first;
    // unknown (null, never an empty list) where the ring was not read.
    std::optional<std::vector<DriverEvent>> driver_events;
    // Events per id and severity since musatop started (model/event_tally.hpp); for
    // /metrics, not part of the JSON output.
    std::vector<EventTotal> driver_event_totals;

    bool operator==(const Device&) const = default;
};

// True when a GPU has the driver's status file: the DRV columns are shown only then.
bool any_driver_status(const std::vector<Device>& devices);

enum class ProcessStatus { ok, access_denied, exited, unverified };

const char* to_string(ProcessStatus status);

struct GpuProcess {
    std::int64_t device_index = 0;
    std::int64_t pid = 0;
    std::optional<std::string> device_uuid;
    std::optional<std::int64_t> gpu_memory_bytes;
    std::optional<std::string> username;
    std::optional<std::string> command;
    // Percent of one logical CPU; unknown on the first observation of a process.
    std::optional<double> cpu_percent;
    std::optional<std::int64_t> rss_bytes;
    // Unix epoch seconds (boot time + start ticks), 2 decimals like psutil.
    std::optional<double> create_time;
    // The identity of this process instance: start time in clock ticks since boot,
    // as /proc gives it. Compared exactly (a PID plus these ticks never repeats);
    // not part of the JSON output.
    std::optional<std::uint64_t> start_ticks;
    std::optional<double> running_seconds;
    ProcessStatus status = ProcessStatus::unverified;
    Attribution attribution;  // container, pod, Slurm job, systemd unit
    // The driver's utilisation of this GPU by this process (`proc_util`, read only
    // with --process-util): total and per engine as the file's header names them.
    // Unknown when not asked (no reason then) or when the driver gives no figure
    // (the reason says why; an unlisted process is not 0 %).
    std::optional<double> gpu_utilization_percent;
    std::vector<EngineUtilization> gpu_engine_utilization;
    std::optional<std::string> gpu_utilization_reason;

    bool operator==(const GpuProcess&) const = default;
};

// True when a row carries the driver's per-process figures or why it has none
// (--process-util): the GPU% columns are shown only then.
bool any_gpu_utilization(const std::vector<GpuProcess>& processes);

struct HostMetrics {
    std::optional<std::string> hostname;
    std::optional<double> cpu_percent;  // of all CPUs; unknown on the first sample
    std::optional<std::int64_t> memory_used_bytes;
    std::optional<std::int64_t> memory_total_bytes;

    bool operator==(const HostMetrics&) const = default;
};

// Where the device list came from in this round.
enum class DeviceSource { none, gmi_json, gmi_summary, demo };

const char* to_string(DeviceSource source);

// How long this round's external calls took, per source (for `serve`'s
// musatop_collect_duration_seconds; not part of the JSON output).
struct CollectDurations {
    std::optional<Seconds> devices;
    std::optional<Seconds> processes;
    bool operator==(const CollectDurations&) const = default;
};

// Where a snapshot the screen shows came from; held beside it (Frame), not in it,
// so marking one copies nothing. Only live data may be signalled.
enum class Provenance {
    live,
    replayed,  // read back from a recording: history, not live processes
    remote,    // fetched from another node by the cluster view: read-only here
};

struct Snapshot {
    WallTime sampled_at{};
    std::optional<WallTime> devices_sampled_at;
    std::optional<WallTime> processes_sampled_at;
    std::optional<std::string> driver_version;
    std::optional<std::string> gmi_version;
    std::optional<std::string> musa_version;
    std::optional<std::string> musa_version_source;
    std::optional<std::string> musa_version_reason;
    HostMetrics host;
    std::vector<Device> devices;
    std::vector<GpuProcess> processes;
    bool devices_stale = false;
    bool processes_stale = false;
    std::vector<std::string> errors;
    DeviceSource device_source = DeviceSource::none;
    // Why the summary table was used instead of `-q --json` (null otherwise).
    std::optional<std::string> device_source_reason;
    // Why every process row is `unverified` (musatop runs in a PID namespace of its
    // own, where GMI's host PIDs name other processes); null otherwise.
    std::optional<std::string> processes_unverified_reason;
    // "Attached GPUs" of GMI's JSON (a count larger than the list means a lost
    // card); not part of the JSON output, the finding is.
    std::optional<std::int64_t> attached_gpus;
    // How many of the GPUs GMI's JSON listed itself, when the summary table had to
    // complete the list (sample 005: the JSON lists 2 of 8); not part of the JSON
    // output, the finding is.
    std::optional<std::int64_t> json_listed_gpus;
    // gpuNN directories of the driver that could not be tied to a GPU GMI lists:
    // host-level information with the reason, never attached to a guessed GPU.
    std::vector<UntiedDriverGpu> untied_driver_gpus;
    // Host-wide findings of the health rules (a lost card, ...).
    std::vector<std::string> health;
    CollectDurations collect_durations;

    bool is_demo() const { return device_source == DeviceSource::demo; }
    bool any_stale() const { return devices_stale || processes_stale; }
    // Exit status 1 for one-shot output: any error or a stale source.
    bool failed() const { return !errors.empty() || any_stale(); }
};

}  // namespace musatop
