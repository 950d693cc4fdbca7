// gpustat's line layout, for `musatop gpustat` on this host and for each node of
// the cluster view's --once: "[0] MTT S4000 | 45°C,  12 % | 12288 / 49152 MB |
// alice(12000M)", with gpustat's optional columns, and gpustat's --json document.
// Pure: a snapshot in, text out. Unknown values are "??" (cluster.md §4).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "musatop/model/snapshot.hpp"
#include "musatop/output/paint.hpp"

namespace musatop {

struct GpustatStyle {
    // A process is user(NNNM); -c shows the command (and the user only with -u),
    // -p adds /pid: user:command/pid(NNNM), gpustat's order.
    bool show_user = false;
    bool show_cmd = false;
    bool show_pid = false;
    bool whole_command = false;  // the cluster view's --show-cmd: the command line, not its name
    bool full_cmd = false;       // -f: a line per process below the GPU with its command line, CPU and RSS
    bool show_fan = false;       // -F
    bool show_codec = false;     // -e: encoder and decoder utilisation
    bool show_power_draw = false, show_power_limit = false;  // -P[=draw,limit]
    bool no_processes = false;
    std::optional<int> name_width;  // --gpuname-width; the longest name when none
    Paint paint;

    // The cluster view's --once: every process with its user, --show-cmd the command line.
    static GpustatStyle cluster() {
        GpustatStyle style;
        style.show_user = true;
        style.whole_command = true;
        return style;
    }
};

// One line per GPU of `view` (and, with full_cmd, one per process below it).
std::vector<std::string> gpustat_lines(const Snapshot& view, const GpustatStyle& style);

// gpustat's own --json document (hostname, driver_version, query_time, gpus with
// its dotted keys and processes), so scripts written for gpustat --json keep working.
std::string gpustat_json(const Snapshot& view);

}  // namespace musatop
