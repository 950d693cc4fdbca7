#include "musatop/tui/screens/process_columns.hpp"

#include <array>

namespace musatop::tui {
namespace {

struct Column {
    const char* header;  // as wide as the column plus its separator
    std::optional<SortField> sort;
    bool full_only;  // hidden by the compact layout
    bool job;        // the JOB column
};

// The header the screen has always had; a click anywhere on a cell picks its field.
constexpr std::array<Column, 9> kColumns = {{
    {" GPU", SortField::gpu, false, false},
    {"     PID", SortField::pid, false, false},
    {" USER     ", SortField::user, false, false},
    {"   GPU MEM", SortField::gpu_memory, false, false},
    {"   CPU%", SortField::cpu, true, false},
    {"      RSS", SortField::rss, true, false},
    {"     TIME", std::nullopt, true, false},
    {" JOB         ", std::nullopt, true, true},
    {" COMMAND", std::nullopt, false, false},
}};

bool shown(const Column& c, bool compact, bool job_column) {
    return !(c.full_only && compact) && (!c.job || job_column);
}

}  // namespace

std::string process_header(bool compact, bool job_column) {
    std::string header;
    for (const auto& c : kColumns)
        if (shown(c, compact, job_column)) header += c.header;
    return header;
}

std::optional<SortField> sort_field_at(int column, bool compact, bool job_column) {
    int start = 0;
    for (const auto& c : kColumns) {
        if (!shown(c, compact, job_column)) continue;
        const int end = start + static_cast<int>(std::string_view(c.header).size());
        if (column >= start && column < end) return c.sort;
        start = end;
    }
    return std::nullopt;
}

}  // namespace musatop::tui
