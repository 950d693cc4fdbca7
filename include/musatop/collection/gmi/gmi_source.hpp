// Runs mthreads-gmi for one round and keeps, per source (devices, processes), the
// last good data and its time, so a failed round shows old data marked stale.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "musatop/collection/gmi/process_table.hpp"
#include "musatop/model/snapshot.hpp"
#include "musatop/util/result.hpp"
#include "musatop/util/subprocess.hpp"

namespace musatop::gmi {

// More GPUs than this in one answer is a broken or lying GMI, not a host: the
// device source fails with a clear message instead of growing without bound.
inline constexpr std::size_t kMaxDevices = 1024;

struct GmiSettings {
    std::string executable = "mthreads-gmi";  // a name looked up in PATH, or a path
    std::chrono::milliseconds timeout{3000};
    std::chrono::milliseconds version_timeout{1000};
    std::size_t max_output_bytes = 16 * 1024 * 1024;
};

// Fills the GMI part of `snapshot`: devices, raw process rows, versions, stale flags
// and errors. /proc enrichment is not done here.
class GmiSource {
public:
    explicit GmiSource(GmiSettings settings) : settings_(std::move(settings)) {}
    void sample(Snapshot& snapshot, int cancel_fd);

private:
    struct Texts {
        Result<std::string> query;
        Result<std::string> summary;
        std::optional<std::string> version_output;
        CollectDurations durations;
    };
    Texts run(int cancel_fd);
    void update_devices(const Result<std::string>& query, const Result<std::string>& summary, Snapshot& snapshot,
                        bool& devices_fresh);
    void update_processes(const Result<std::string>& summary, bool devices_fresh, Snapshot& snapshot);

    GmiSettings settings_;
    subprocess::ChildReaper reaper_;
    bool version_attempted_ = false;
    std::optional<std::string> gmi_version_;
    std::optional<std::string> driver_version_;
    std::vector<Device> devices_;
    std::optional<WallTime> devices_at_;
    std::vector<GpuProcess> processes_;
    std::optional<WallTime> processes_at_;
    DeviceSource device_source_ = DeviceSource::none;
    std::optional<std::string> device_source_reason_;
    std::optional<std::int64_t> attached_gpus_;
    std::optional<std::int64_t> json_listed_gpus_;  // set when the summary completed the JSON's list
};

// The user-facing message for a GMI command that did not produce usable output.
std::string describe_exit_failure(int exit_code, const std::string& stdout_text, const std::string& stderr_text);

}  // namespace musatop::gmi
