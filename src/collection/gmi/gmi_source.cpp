#include "musatop/collection/gmi/gmi_source.hpp"

#include <signal.h>

#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <map>

#include "musatop/util/subprocess.hpp"
#include "musatop/collection/gmi/device_json.hpp"
#include "musatop/collection/gmi/summary_table.hpp"
#include "musatop/collection/gmi/text_lines.hpp"
#include "musatop/collection/gmi/values.hpp"
#include "musatop/util/utf8.hpp"
#include "musatop/util/text.hpp"

namespace musatop::gmi {
using namespace musatop::text;  // trim, case-insensitive matching, splitting
using namespace musatop::subprocess;
namespace {

std::string joined(const std::string& program, const std::vector<std::string>& args) {
    std::string text = program;
    for (const auto& arg : args) text += " " + arg;
    return text;
}

std::string signal_name(int signal) {
    const char* description = ::strsignal(signal);
    return description ? description : "unknown signal";
}

Result<std::string> outcome_text(const CommandOutcome& outcome, const std::string& command_line) {
    using Kind = CommandOutcome::Kind;
    switch (outcome.kind) {
        case Kind::start_failed: return Error{"GMI command could not start: " + outcome.start_error};
        case Kind::timed_out:
            return Error{"GMI command timed out: " + command_line +
                         (outcome.parked ? " (it ignores SIGKILL, stuck in the driver; reaped once it dies)" : "")};
        case Kind::cancelled: return Error{"GMI command cancelled: " + command_line};
        case Kind::output_too_large: return Error{"GMI output exceeded the size limit: " + command_line};
        case Kind::signaled:
            return Error{"GMI was killed by signal " + std::to_string(outcome.signal) + " (" +
                         signal_name(outcome.signal) + "): " + command_line};
        case Kind::status_lost:
            return Error{"GMI exit status was lost (reaped by another part of the process): " + command_line};
        case Kind::exited: break;
    }
    if (outcome.exit_code != 0)
        return Error{describe_exit_failure(outcome.exit_code, outcome.stdout_text, outcome.stderr_text)};
    std::string text = utf8::repair(outcome.stdout_text);
    if (trim(text).empty()) return Error{"GMI printed no output: " + command_line};
    if (const auto error_line = find_error_line(text); !error_line.empty())
        return Error{"GMI reported an error: " + error_line};
    return text;
}

// The summary table names the PCIe lanes, Perf and ECC mode; where the JSON lacks
// them (older GMI), a device takes them from the table's row with its index and bus.
void fill_from_summary(std::vector<Device>& devices, const std::string& summary) {
    const bool missing = std::any_of(devices.begin(), devices.end(), [](const Device& d) {
        return !d.pcie_link_width_current || !d.performance_state || !d.ecc_mode;
    });
    if (!missing) return;
    const auto rows = parse_summary_devices(summary);
    if (!rows.ok()) return;
    for (auto& device : devices)
        for (const auto& row : rows.value()) {
            if (row.index != device.index || (row.bus_id && device.bus_id && !iequals(*row.bus_id, *device.bus_id)))
                continue;
            if (!device.pcie_link_width_current && !device.pcie_link_width_max) {
                device.pcie_link_width_current = row.pcie_link_width_current;
                device.pcie_link_width_max = row.pcie_link_width_max;
            }
            if (!device.performance_state) device.performance_state = row.performance_state;
            if (!device.ecc_mode) device.ecc_mode = row.ecc_mode;
        }
}

// GMI's JSON may list fewer GPUs than it counts while its summary table shows them
// all (sample 005: 2 of 8). The table's GPUs the JSON lacks are added with what the
// table knows; their UUID and every other reading stay unknown, never invented.
// Returns how many were added.
std::size_t add_summary_only_devices(std::vector<Device>& devices, const std::string& summary, std::size_t limit) {
    const auto rows = parse_summary_devices(summary);
    if (!rows.ok()) return 0;
    std::size_t added = 0;
    for (const auto& row : rows.value()) {
        const bool listed = std::any_of(devices.begin(), devices.end(), [&](const Device& d) {
            return d.index == row.index || (row.bus_id && d.bus_id && iequals(*row.bus_id, *d.bus_id));
        });
        if (listed || devices.size() >= limit) continue;
        Device device = row;
        device.uuid.reset();
        devices.push_back(std::move(device));
        ++added;
    }
    std::stable_sort(devices.begin(), devices.end(),
                     [](const Device& a, const Device& b) { return a.index < b.index; });
    return added;
}

const Device* device_with_index(const std::vector<Device>& devices, std::int64_t index) {
    for (const auto& device : devices)
        if (device.index == index) return &device;
    return nullptr;
}

}  // namespace

std::string describe_exit_failure(int exit_code, const std::string& stdout_text, const std::string& stderr_text) {
    std::string message = "GMI exited with code " + std::to_string(exit_code);
    std::string detail(trim(utf8::repair(trim(stderr_text).empty() ? stdout_text : stderr_text)));
    for (char& c : detail)
        if (c == '\n' || c == '\r') c = ' ';
    const auto code_points = utf8::decode(detail);
    if (code_points.size() > 300) {
        detail.clear();
        for (std::size_t i = 0; i < 300; ++i) utf8::append(detail, code_points[i]);
    }
    if (!detail.empty()) message += ": " + detail;
    return message;
}

GmiSource::Texts GmiSource::run(int cancel_fd) {
    const char* path = std::getenv("PATH");
    const auto lookup = resolve_executable(settings_.executable, path ? path : "");
    if (lookup.status != ExecutableLookup::Status::found) {
        const Error error{lookup.status == ExecutableLookup::Status::not_found
                              ? "GMI executable not found: " + settings_.executable
                              : "GMI command could not start: " + lookup.error};
        version_attempted_ = true;  // `-v` belongs to the first round, found or not
        return Texts{error, error, std::nullopt, {}};
    }
    const std::vector<std::string> query_args = {"-q", "--json"};
    const std::vector<CommandSpec> specs = {
        {{lookup.path, "-q", "--json"}, settings_.executable, settings_.timeout},
        {{lookup.path}, settings_.executable, settings_.timeout},
    };
    reaper_.reap_finished();  // GMI calls of earlier rounds that were stuck in the driver
    RunLimits limits;
    limits.max_output_bytes = settings_.max_output_bytes;
    limits.cancel_fd = cancel_fd;
    limits.reaper = &reaper_;
    const auto outcomes = run_commands(specs, {"LC_ALL=C"}, limits);
    Texts texts{outcome_text(outcomes[0], joined(settings_.executable, query_args)),
                outcome_text(outcomes[1], settings_.executable), std::nullopt,
                CollectDurations{Seconds(outcomes[0].elapsed), Seconds(outcomes[1].elapsed)}};

    // `-v` only when the summary's banner does not state the version (every real
    // banner does): a round is then two calls, a one-shot no more than that. A GMI
    // without it still gets its one `-v`, in the first round.
    if (version_attempted_) return texts;
    version_attempted_ = true;
    if (texts.summary.ok() && parse_banner_versions(texts.summary.value()).gmi_version) return texts;
    const CommandSpec version{
        {lookup.path, "-v"}, settings_.executable, std::min(settings_.timeout, settings_.version_timeout)};
    const auto outcome = run_commands({version}, {"LC_ALL=C"}, limits).at(0);
    if (outcome.kind == CommandOutcome::Kind::exited && outcome.exit_code == 0)
        texts.version_output = utf8::repair(outcome.stdout_text);
    return texts;
}

void GmiSource::update_devices(const Result<std::string>& query, const Result<std::string>& summary, Snapshot& snapshot,
                               bool& devices_fresh) {
    std::string failure = query.ok() ? std::string() : query.error();
    if (query.ok()) {
        auto parsed = parse_device_json(query.value());
        if (parsed.ok() && parsed->devices.size() > kMaxDevices) {
            failure = "GMI listed " + std::to_string(parsed->devices.size()) + " GPUs, more than musatop handles (" +
                      std::to_string(kMaxDevices) + ")";
        } else if (parsed.ok()) {
            devices_ = std::move(parsed.value().devices);
            if (summary.ok()) fill_from_summary(devices_, summary.value());
            attached_gpus_ = parsed->attached_gpus;
            json_listed_gpus_.reset();
            const auto listed = devices_.size();
            if (summary.ok() && attached_gpus_ && *attached_gpus_ > static_cast<std::int64_t>(listed) &&
                add_summary_only_devices(devices_, summary.value(), kMaxDevices) > 0)
                json_listed_gpus_ = static_cast<std::int64_t>(listed);
            if (parsed->driver_version) driver_version_ = parsed->driver_version;
            device_source_ = DeviceSource::gmi_json;
            device_source_reason_.reset();
            devices_fresh = true;
        } else {
            failure = parsed.error();
        }
    }
    // An older GMI without `-q --json`, or one whose JSON is broken: the summary table
    // still names every GPU with a few of its readings.
    if (!devices_fresh && summary.ok()) {
        auto from_table = parse_summary_devices(summary.value());
        if (from_table.ok() && from_table->size() <= kMaxDevices) {
            devices_ = std::move(from_table.value());
            device_source_ = DeviceSource::gmi_summary;
            attached_gpus_.reset();
            json_listed_gpus_.reset();
            device_source_reason_ =
                "mthreads-gmi -q --json failed (" + failure + "); devices read from the summary table";
            devices_fresh = true;
        }
    }
    if (devices_fresh) {
        devices_at_ = snapshot.sampled_at;
    } else {
        snapshot.devices_stale = true;
        snapshot.errors.push_back("devices: " + failure);
    }
}

void GmiSource::update_processes(const Result<std::string>& summary, bool devices_fresh, Snapshot& snapshot) {
    auto fail = [&](const std::string& message) {
        snapshot.processes_stale = true;
        snapshot.errors.push_back("processes: " + message);
    };
    if (!summary.ok()) return fail(summary.error());
    const auto rows = parse_process_table(summary.value());
    if (!rows.ok()) return fail(rows.error());
    std::vector<GpuProcess> processes;
    for (const auto& row : rows.value()) {
        GpuProcess process;
        process.device_index = row.device_index;
        process.pid = row.pid;
        process.command = row.name;
        process.gpu_memory_bytes = row.gpu_memory_bytes;
        if (devices_fresh) {
            const Device* device = device_with_index(devices_, row.device_index);
            if (!device) return fail("GMI process table refers to a GPU absent from the current device query");
            process.device_uuid = device->uuid;
        }
        processes.push_back(std::move(process));
    }
    processes_ = std::move(processes);
    processes_at_ = snapshot.sampled_at;
}

void GmiSource::sample(Snapshot& snapshot, int cancel_fd) {
    const Texts texts = run(cancel_fd);
    if (texts.version_output) gmi_version_ = parse_version_output(*texts.version_output);
    if (texts.summary.ok()) {
        const auto banner = parse_banner_versions(texts.summary.value());
        if (!gmi_version_) gmi_version_ = banner.gmi_version;
        if (!driver_version_) driver_version_ = banner.driver_version;
    }
    bool devices_fresh = false;
    update_devices(texts.query, texts.summary, snapshot, devices_fresh);
    update_processes(texts.summary, devices_fresh, snapshot);

    snapshot.devices = devices_;
    snapshot.processes = processes_;
    snapshot.devices_sampled_at = devices_at_;
    snapshot.processes_sampled_at = processes_at_;
    snapshot.driver_version = driver_version_;
    snapshot.gmi_version = gmi_version_;
    snapshot.device_source = device_source_;
    snapshot.attached_gpus = attached_gpus_;
    snapshot.json_listed_gpus = json_listed_gpus_;
    snapshot.device_source_reason = device_source_reason_;
    snapshot.collect_durations = texts.durations;
}

}  // namespace musatop::gmi
