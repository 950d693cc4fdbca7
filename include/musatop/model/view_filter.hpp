// Filtering and sorting shared by the JSON, text and TUI outputs.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "musatop/model/snapshot.hpp"

namespace musatop {

enum class SortField { gpu_memory, gpu_util, cpu, rss, pid, user, gpu };

const char* to_string(SortField field);
std::optional<SortField> sort_field_from_string(std::string_view name);
// The next field of the sort order among those the screen shows: a table without the
// host's CPU and RSS columns (the compact layout, the cluster view) skips them, one
// without GPU% (no --process-util) skips that.
SortField next_sort_field(SortField field, bool host_columns = true, bool gpu_util_column = false);

struct ViewFilter {
    std::optional<std::set<std::int64_t>> gpu_indices;
    std::optional<std::set<std::int64_t>> pids;
    // Exact, case-sensitive user names a row must have; every entry must match
    // (--user and the screen's "my processes" both add one).
    std::vector<std::string> users;
    std::optional<std::int64_t> slurm_job;        // --job: this Slurm job only
    std::optional<std::string> container_prefix;  // --container: ids starting so
    // Substring of PID, GPU index, user, command, job, container, pod or unit, any case.
    std::string search;
    SortField sort = SortField::gpu_memory;
    bool reverse = false;
};

bool device_visible(const Device& device, const ViewFilter& filter);
bool process_visible(const GpuProcess& process, const ViewFilter& filter);

// Known values first in the field's default direction (inverted by reverse), ties in
// ascending (PID, GPU) order; unknown values always last, in (PID, GPU) order.
void sort_processes(std::vector<GpuProcess>& processes, SortField field, bool reverse);

// The order sort_processes uses, for lists that carry more than a process row
// (the cluster view's rows with their node).
bool process_before(const GpuProcess& a, const GpuProcess& b, SortField field, bool reverse);

// A copy with devices and processes filtered and processes sorted; times, flags,
// errors, versions and host still describe the whole collection.
Snapshot apply_view(const Snapshot& snapshot, const ViewFilter& filter);

}  // namespace musatop
