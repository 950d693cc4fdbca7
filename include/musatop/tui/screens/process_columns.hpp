// The process table's columns: one table gives the header text and which sort
// field a click on each header cell selects, so the two cannot disagree.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "musatop/model/view_filter.hpp"

namespace musatop::tui {

// Which of the optional columns a table shows.
struct ProcessColumns {
    bool compact = false;   // no CPU%, RSS, TIME, JOB
    bool job = false;       // JOB (Slurm job, container, unit)
    bool gpu_util = false;  // GPU%: the driver's per-process utilisation (--process-util)
};

// " GPU     PID USER        GPU MEM  GPU%   CPU%      RSS     TIME JOB          COMMAND"
std::string process_header(const ProcessColumns& columns);

// The sort field of the header cell at `column` (none: TIME, JOB, COMMAND).
std::optional<SortField> sort_field_at(int column, const ProcessColumns& columns);

}  // namespace musatop::tui
