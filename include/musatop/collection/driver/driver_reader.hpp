// The thin adapter over /proc/driver/musa: lists the gpuNN directories under a root
// (tests point it at a fake tree; default "/") and reads their files each round,
// with no process started and nothing ever written (spec §7.7). Each file that is
// missing or fails is unknown with its reason; the others are still read.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "musatop/model/driver_info.hpp"

namespace musatop::driver {

// What the driver source is told: where the tree is and whether to read
// `proc_util`, which starts the firmware's performance stream on its first read
// (spec §2.4): per-process utilisation is opt-in (--process-util).
struct DriverOptions {
    std::string root = "/";
    bool process_util = false;
};

struct DriverGpu {
    int number = 0;         // NN of gpuNN (hex in the name)
    std::string directory;  // "gpu0a"
    // Its PCI function through devname → /sys/class/misc/mtgpu.N/device; without it
    // the directory's data is host-level information and `unmapped` says why.
    std::optional<std::string> bus_id;
    std::optional<std::string> unmapped;
    std::optional<DriverStatus> status;
    std::optional<std::string> status_error;
    std::vector<DriverEvent> events;
    std::optional<std::string> events_error;                   // "event_report is off (enable_event_report=0)", ...
    std::optional<std::vector<ProcessUtilization>> processes;  // read only when asked (proc_util, opt-in)
    std::optional<std::string> processes_error;
};

struct DriverTree {
    std::vector<DriverGpu> gpus;        // by NN
    std::optional<std::string> absent;  // "/proc/driver/musa: No such file or directory"
    bool blocked = false;               // the files did not answer in time: `absent` says so
};

class DriverReader {
public:
    explicit DriverReader(std::string root = "/") : root_(std::move(root)) {}
    DriverTree read(bool process_util) const;

private:
    std::string path(const std::string& inside) const;
    std::optional<std::string> bus_id_of(const std::string& devname_text, std::string& why_not) const;
    void read_events(const std::string& directory, DriverGpu& gpu) const;

    std::string root_;
};

}  // namespace musatop::driver
