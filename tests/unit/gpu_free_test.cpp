// Which GPUs are free: no process and utilisation under the threshold; unknown is
// neither free nor in use.
#include <gtest/gtest.h>

#include "musatop/model/gpu_free.hpp"
#include "snapshot_builder.hpp"

using namespace musatop;
using musatop::testing::SnapshotBuilder;

namespace {

// GPU 0 at 2 % with no process, GPU 1 at 0 % with a process, GPU 2 at 40 % with no
// process, GPU 3 with utilisation N/A.
Snapshot four_gpus() {
    const double util[] = {2, 0, 40, -1};
    return SnapshotBuilder()
        .at(WallTime(std::chrono::seconds(1800000000)))
        .gpus(4,
              [&](Device& d, int i) {
                  if (util[i] >= 0) d.gpu_utilization_percent = util[i];
              })
        .processes(1, [](GpuProcess& p, int) { p.device_index = 1; })
        .build();
}

}  // namespace

TEST(GpuFree, NoProcessAndUnderTheThresholdIsFree) {
    const Snapshot s = four_gpus();
    const FreeRule rule;                                   // 5 %
    EXPECT_EQ(gpu_is_free(s.devices[0], s, rule), true);   // idle cards sit at a few percent
    EXPECT_EQ(gpu_is_free(s.devices[1], s, rule), false);  // a process at 0 % is still using it
    EXPECT_EQ(gpu_is_free(s.devices[2], s, rule), false);  // busy without a visible process
    EXPECT_EQ(gpu_is_free(s.devices[3], s, rule), std::nullopt);
    const FreeCount count = count_free(s, ViewFilter{}, rule);
    EXPECT_EQ(count.free, 1);
    EXPECT_EQ(count.in_use, 2);
    EXPECT_EQ(count.unknown, 1);
    EXPECT_EQ(free_gpu_indices(s, ViewFilter{}, rule), (std::vector<std::int64_t>{0}));
    EXPECT_EQ(count_free(s, ViewFilter{}, FreeRule{50}).free, 2);  // the threshold is a setting
}

TEST(GpuFree, AnUnknownProcessListMakesEveryGpuWithoutAProcessUnknown) {
    Snapshot s = four_gpus();
    s.processes_stale = true;
    EXPECT_EQ(gpu_is_free(s.devices[0], s, FreeRule{}), std::nullopt);
    EXPECT_EQ(gpu_is_free(s.devices[1], s, FreeRule{}), false);  // its process is still known to be there
    EXPECT_EQ(free_gpu_indices(s, ViewFilter{}, FreeRule{}), std::nullopt);
}

// Through Prometheus an agent may export its count of processes per GPU but not
// the rows: a GPU it counts processes on is busy, one it counts none on may be free
// (issue 34 #1: a GPU with two processes showed as free).
TEST(GpuFree, AnAgentsProcessCountDecidesWhereTheRowsAreNotExported) {
    Snapshot s = four_gpus();
    s.processes.clear();
    s.processes_stale = true;  // the rows are not exported
    const std::int64_t counts[] = {0, 2, 0, 0};
    for (int i = 0; i < 4; ++i) s.devices[static_cast<std::size_t>(i)].process_count_reported = counts[i];
    EXPECT_EQ(gpu_is_free(s.devices[0], s, FreeRule{}), true);
    EXPECT_EQ(gpu_is_free(s.devices[1], s, FreeRule{}), false);  // 2 processes, idle or not
    EXPECT_EQ(gpu_is_free(s.devices[2], s, FreeRule{}), false);  // busy by its utilisation
    EXPECT_EQ(gpu_is_free(s.devices[3], s, FreeRule{}), std::nullopt);
    EXPECT_EQ(free_gpu_indices(s, ViewFilter{}, FreeRule{}), std::vector<std::int64_t>{0});
    s.devices[3].process_count_reported.reset();  // one GPU without a count: the list is unknown
    EXPECT_EQ(free_gpu_indices(s, ViewFilter{}, FreeRule{}), std::nullopt);
}

TEST(GpuFree, OnlyTheGpusTheFilterShowsAreCounted) {
    ViewFilter filter;
    filter.gpu_indices = std::set<std::int64_t>{0, 1};
    const FreeCount count = count_free(four_gpus(), filter, FreeRule{});
    EXPECT_EQ(count.free + count.in_use + count.unknown, 2);
    EXPECT_EQ(count.free, 1);
}
