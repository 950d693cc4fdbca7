// The process table's columns: one table gives the header text and which sort
// field a click on each header cell selects, so the two cannot disagree.
#pragma once

#include <optional>
#include <string>

#include "musatop/model/view_filter.hpp"

namespace musatop::tui {

// " GPU     PID USER        GPU MEM   CPU%      RSS     TIME JOB          COMMAND"
std::string process_header(bool compact, bool job_column);

// The sort field of the header cell at `column` (none: TIME, JOB, COMMAND).
std::optional<SortField> sort_field_at(int column, bool compact, bool job_column);

}  // namespace musatop::tui
