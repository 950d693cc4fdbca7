#include <gtest/gtest.h>

#include "musatop/model/view_filter.hpp"

using namespace musatop;

namespace {

GpuProcess row(std::int64_t gpu, std::int64_t pid, std::optional<std::int64_t> memory = std::nullopt,
               std::optional<std::string> user = std::nullopt, std::optional<std::string> command = std::nullopt) {
    GpuProcess p;
    p.device_index = gpu;
    p.pid = pid;
    p.gpu_memory_bytes = memory;
    p.username = std::move(user);
    p.command = std::move(command);
    return p;
}

std::vector<std::int64_t> pids(const std::vector<GpuProcess>& rows) {
    std::vector<std::int64_t> out;
    for (const auto& r : rows) out.push_back(r.pid);
    return out;
}

}  // namespace

TEST(ViewFilter, UnknownValuesSortLastInBothDirections) {
    std::vector<GpuProcess> rows = {row(0, 1), row(0, 2, 0), row(0, 3, 20)};
    sort_processes(rows, SortField::gpu_memory, false);
    EXPECT_EQ(pids(rows), (std::vector<std::int64_t>{3, 2, 1}));
    sort_processes(rows, SortField::gpu_memory, true);
    EXPECT_EQ(pids(rows), (std::vector<std::int64_t>{2, 3, 1}));
}

TEST(ViewFilter, UserSortIsAscendingByDefault) {
    std::vector<GpuProcess> rows = {row(0, 1, 1, std::nullopt), row(0, 2, 1, "alice"), row(0, 3, 1, "zoe")};
    sort_processes(rows, SortField::user, false);
    EXPECT_EQ(pids(rows), (std::vector<std::int64_t>{2, 3, 1}));
    sort_processes(rows, SortField::user, true);
    EXPECT_EQ(pids(rows), (std::vector<std::int64_t>{3, 2, 1}));
}

TEST(ViewFilter, TiesStayInPidThenGpuOrder) {
    for (auto field : {SortField::pid, SortField::gpu, SortField::gpu_memory}) {
        std::vector<GpuProcess> rows = {row(1, 12, 5), row(1, 2, 5), row(0, 2, 5)};
        sort_processes(rows, field, false);
        ASSERT_EQ(rows.size(), 3u);
        EXPECT_EQ(std::make_pair(rows[0].pid, rows[0].device_index), std::make_pair(std::int64_t{2}, std::int64_t{0}));
        EXPECT_EQ(std::make_pair(rows[1].pid, rows[1].device_index), std::make_pair(std::int64_t{2}, std::int64_t{1}));
        EXPECT_EQ(std::make_pair(rows[2].pid, rows[2].device_index), std::make_pair(std::int64_t{12}, std::int64_t{1}));
    }
}

TEST(ViewFilter, FiltersCombineAndKeepTheRestOfTheSnapshot) {
    Snapshot s;
    s.devices = {Device{}, Device{}};
    s.devices[1].index = 1;
    s.processes = {row(0, 101, 1, "bob"), row(1, 101, 2048, "bob"), row(1, 102, 5, "alice")};
    s.errors = {"processes: x"};
    s.processes_stale = true;
    ViewFilter filter;
    filter.gpu_indices = std::set<std::int64_t>{1};
    filter.pids = std::set<std::int64_t>{101};
    filter.users = {"bob"};
    const Snapshot view = apply_view(s, filter);
    ASSERT_EQ(view.devices.size(), 1u);
    EXPECT_EQ(view.devices[0].index, 1);
    ASSERT_EQ(view.processes.size(), 1u);
    EXPECT_EQ(view.processes[0].gpu_memory_bytes, 2048);
    EXPECT_EQ(view.errors, s.errors);
    EXPECT_TRUE(view.processes_stale);
    EXPECT_EQ(s.processes.size(), 3u);
}

TEST(ViewFilter, PidFilterKeepsDevicesAndAllRowsOfTheProcess) {
    Snapshot s;
    s.devices = {Device{}};
    s.processes = {row(0, 7), row(1, 7), row(1, 8)};
    ViewFilter filter;
    filter.pids = std::set<std::int64_t>{7};
    const Snapshot view = apply_view(s, filter);
    EXPECT_EQ(view.devices.size(), 1u);
    EXPECT_EQ(view.processes.size(), 2u);
}

TEST(ViewFilter, UserMatchIsExactAndUnknownNeverMatches) {
    ViewFilter filter;
    filter.users = {"alice"};
    EXPECT_TRUE(process_visible(row(0, 1, 1, "alice"), filter));
    EXPECT_FALSE(process_visible(row(0, 1, 1, "Alice"), filter));
    EXPECT_FALSE(process_visible(row(0, 1, 1, std::nullopt), filter));
    filter.users.push_back("bob");  // --user alice plus "my processes" as bob
    EXPECT_FALSE(process_visible(row(0, 1, 1, "alice"), filter));
}

TEST(ViewFilter, SearchMatchesPidGpuUserAndCommandIgnoringCase) {
    ViewFilter filter;
    const auto visible = [&](const std::string& search, const GpuProcess& p) {
        filter.search = search;
        return process_visible(p, filter);
    };
    EXPECT_TRUE(visible("20", row(0, 20)));
    EXPECT_FALSE(visible("20", row(0, 21)));
    EXPECT_TRUE(visible("BOB", row(0, 21, 1, "bob")));
    EXPECT_TRUE(visible("30", row(0, 30)));
    EXPECT_TRUE(visible("pYtHoN", row(0, 1, 1, std::nullopt, "Python Training")));
    EXPECT_TRUE(visible("", row(0, 1)));
}

TEST(ViewFilter, SortFieldNamesAndCycle) {
    EXPECT_EQ(sort_field_from_string("rss"), SortField::rss);
    EXPECT_FALSE(sort_field_from_string("invalid"));
    SortField field = SortField::gpu_memory;
    std::vector<std::string> seen;
    for (int i = 0; i < 6; ++i) {
        seen.push_back(to_string(field));
        field = next_sort_field(field);
    }
    EXPECT_EQ(seen, (std::vector<std::string>{"gpu_memory", "cpu", "rss", "pid", "user", "gpu"}));
    EXPECT_EQ(field, SortField::gpu_memory);
    // With the GPU% column (--process-util) its field follows GPU memory.
    EXPECT_EQ(next_sort_field(SortField::gpu_memory, true, true), SortField::gpu_util);
    EXPECT_EQ(next_sort_field(SortField::gpu_util, false, true), SortField::pid);
    EXPECT_EQ(next_sort_field(SortField::gpu_util, true, false), SortField::cpu);
}

// A table without CPU and RSS columns (compact, the cluster view) cycles through the
// columns it shows, and from a field it does not show (a config's "cpu") goes on.
TEST(ViewFilter, SortCycleSkipsColumnsTheTableDoesNotShow) {
    SortField field = SortField::gpu_memory;
    std::vector<std::string> seen;
    for (int i = 0; i < 4; ++i) {
        seen.push_back(to_string(field));
        field = next_sort_field(field, false);
    }
    EXPECT_EQ(seen, (std::vector<std::string>{"gpu_memory", "pid", "user", "gpu"}));
    EXPECT_EQ(field, SortField::gpu_memory);
    EXPECT_EQ(next_sort_field(SortField::cpu, false), SortField::pid);
}
