// Every terminal size from 1x1 to 300x120: the layout and a full frame keep their
// invariants (no row wider than the terminal, blocks that do not overlap, page
// sizes of at least one, no crash), like nvtop's layout tests.
#include <gtest/gtest.h>

#include <cstdlib>

#include "snapshot_builder.hpp"
#include "musatop/output/sanitize.hpp"
#include "musatop/tui/layout.hpp"
#include "musatop/tui/screens/main_screen.hpp"
#include "test_support.hpp"

using namespace musatop;
using namespace musatop::tui;

namespace {

constexpr int kMaxWidth = 300;
constexpr int kMaxHeight = 120;

Snapshot busy_snapshot() {
    return musatop::testing::SnapshotBuilder()
        .host("a-rather-long-host-name.example.org", 55, 3LL << 30, 16LL << 30)
        .gpus(8,
              [](Device& d, int i) {
                  d.name = "MTT S5000 宽字符-" + std::to_string(i);
                  d.gpu_utilization_percent = 12.5 * i;
                  d.memory_used_bytes = (1LL << 30) * i;
                  d.memory_total_bytes = 80LL << 30;
                  if (i != 3) d.temperature_c = 40 + i;
                  d.power_draw_w = 100 + i;
              })
        .processes(40,
                   [](GpuProcess& p, int i) {
                       p.gpu_memory_bytes = (1LL << 28) * i;
                       p.username = i % 3 ? "alice" : "用户";
                       p.command = "python train.py --run " + std::string(static_cast<std::size_t>(i * 7), 'x');
                       p.status = ProcessStatus::ok;
                   })
        .build();
}

struct Fixture {
    Snapshot unfiltered = busy_snapshot();
    Snapshot view = unfiltered;
    History history;
    UiState state;
    Fixture() {
        for (int t = 0; t < 300; t += 7) history.record(unfiltered, musatop::testing::mono(700 + t));
    }
};

void check_frame(Fixture& f, int width, int height) {
    Canvas canvas(width, height);
    ScreenInput in;
    in.unfiltered = &f.unfiltered;
    in.view = &f.view;
    in.history = &f.history;
    in.state = &f.state;
    in.now_second = 1000;
    in.now = musatop::testing::mono(1000);
    in.title = "musatop";
    const ScreenGeometry g = draw_screen(canvas, in);
    ASSERT_GE(g.process_page_size, 1) << width << "x" << height;
    ASSERT_GE(g.layout.device_page_size, 1) << width << "x" << height;
    for (int row = 0; row < height; ++row)
        ASSERT_LE(display_width(canvas.row_text(row)), width) << width << "x" << height << " row " << row;
    if (!g.layout.too_small) {
        // Header, devices, trends and the process header stay above the process rows,
        // which stay above the two status rows.
        ASSERT_LE(g.first_process_row + 2, height) << width << "x" << height;
    }
}

}  // namespace

TEST(LayoutInvariants, EverySizeFrom1x1To300x120) {
    for (bool trends : {true, false})
        for (int width = 1; width <= kMaxWidth; ++width)
            for (int height = 1; height <= kMaxHeight; ++height) {
                const Layout l = compute_layout({width, height, trends, false, 15});
                ASSERT_GE(l.device_page_size, 1) << width << "x" << height;
                ASSERT_GE(l.bar_width, 1) << width << "x" << height;
                if (l.too_small) continue;
                ASSERT_GE(width, kMinWidth);
                ASSERT_GE(height, kMinHeight);
                // Header (4) + device rows + trend + process header (2) + one process row + status (2).
                ASSERT_LE(4 + l.device_page_size + l.trend_height + 2 + 1 + 2, height) << width << "x" << height;
                if (l.trend_height) {
                    ASSERT_TRUE(trends);
                }
            }
}

TEST(LayoutInvariants, FullFrameAtEverySize) {
    Fixture f;
    int drawn = 0;
    for (int width = 1; width <= kMaxWidth; ++width)
        for (int height = 1; height <= kMaxHeight; ++height) {
            check_frame(f, width, height);
            if (::testing::Test::HasFatalFailure()) return;
            ++drawn;
        }
    f.state.trends_visible = false;
    f.state.compact = true;
    f.state.modal = Modal::help;
    for (int width = 1; width <= kMaxWidth; width += 13)
        for (int height = 1; height <= kMaxHeight; height += 11) check_frame(f, width, height);
    EXPECT_EQ(drawn, kMaxWidth * kMaxHeight);
}
