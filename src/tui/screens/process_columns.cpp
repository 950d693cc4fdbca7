#include "musatop/tui/screens/process_columns.hpp"

#include <array>

namespace musatop::tui {
namespace {

struct Column {
    const char* header;  // as wide as the column plus its separator
    std::optional<SortField> sort;
    bool full_only;  // hidden by the compact layout
    bool job;        // the JOB column
    bool gpu_util;   // the GPU% column
};

// The header the screen has always had; a click anywhere on a cell picks its field.
constexpr std::array<Column, 10> kColumns = {{
    {" GPU", SortField::gpu, false, false, false},
    {"     PID", SortField::pid, false, false, false},
    {" USER     ", SortField::user, false, false, false},
    {"   GPU MEM", SortField::gpu_memory, false, false, false},
    {"  GPU%", SortField::gpu_util, false, false, true},
    {"   CPU%", SortField::cpu, true, false, false},
    {"      RSS", SortField::rss, true, false, false},
    {"     TIME", std::nullopt, true, false, false},
    {" JOB         ", std::nullopt, true, true, false},
    {" COMMAND", std::nullopt, false, false, false},
}};

bool shown(const Column& c, const ProcessColumns& columns) {
    return !(c.full_only && columns.compact) && (!c.job || columns.job) && (!c.gpu_util || columns.gpu_util);
}

}  // namespace

std::string process_header(const ProcessColumns& columns) {
    std::string header;
    for (const auto& c : kColumns)
        if (shown(c, columns)) header += c.header;
    return header;
}

std::optional<SortField> sort_field_at(int column, const ProcessColumns& columns) {
    int start = 0;
    for (const auto& c : kColumns) {
        if (!shown(c, columns)) continue;
        const int end = start + static_cast<int>(std::string_view(c.header).size());
        if (column >= start && column < end) return c.sort;
        start = end;
    }
    return std::nullopt;
}

}  // namespace musatop::tui
