// Mouse reports and what a click, a double-click or the wheel does, on frames
// drawn like the real screen (pure: no terminal).
#include <gtest/gtest.h>

#include "musatop/tui/screens/process_columns.hpp"
#include "screen_fixture.hpp"

using namespace musatop;
using namespace musatop::tui;
using namespace musatop::tui::testing;
using namespace std::chrono_literals;

namespace {

Key mouse(MouseAction action, int row, int column) {
    Key key{KeyKind::mouse};
    key.mouse = action;
    key.row = row;
    key.column = column;
    return key;
}

}  // namespace

TEST(Mouse, SgrReportsParse) {
    const auto press = parse_sgr_mouse("0;12;5M");
    ASSERT_TRUE(press);
    EXPECT_EQ(press->kind, KeyKind::mouse);
    EXPECT_EQ(press->mouse, MouseAction::left_press);
    EXPECT_EQ(press->column, 11);
    EXPECT_EQ(press->row, 4);
    EXPECT_EQ(parse_sgr_mouse("0;12;5m")->mouse, MouseAction::release);
    EXPECT_EQ(parse_sgr_mouse("64;300;200M")->mouse, MouseAction::wheel_up);  // beyond X10's 223 columns
    EXPECT_EQ(parse_sgr_mouse("65;1;1M")->mouse, MouseAction::wheel_down);
    EXPECT_EQ(parse_sgr_mouse("16;3;3M")->mouse, MouseAction::left_press);  // Ctrl held: still a click
    EXPECT_EQ(parse_sgr_mouse("2;3;3M")->mouse, MouseAction::right_press);
    for (const char* bad : {"", "M", "0;1M", "0;0;1M", "0;1;0M", "0;a;1M", "32;1;1M", "0;1;1", "0;1;1X",
                            "99999999;1;1M", "0;;1M", "7;1;1M"})
        EXPECT_FALSE(parse_sgr_mouse(bad)) << bad;
}

TEST(Mouse, HeaderCellsMatchTheSortFields) {
    const ProcessColumns plain{false, false, false};
    const std::string full = process_header(plain);
    EXPECT_EQ(full, " GPU     PID USER        GPU MEM   CPU%      RSS     TIME COMMAND");
    EXPECT_EQ(sort_field_at(static_cast<int>(full.find("PID")), plain), SortField::pid);
    EXPECT_EQ(sort_field_at(static_cast<int>(full.find("USER")), plain), SortField::user);
    EXPECT_EQ(sort_field_at(static_cast<int>(full.find("GPU MEM")) + 4, plain), SortField::gpu_memory);
    EXPECT_EQ(sort_field_at(static_cast<int>(full.find("CPU%")), plain), SortField::cpu);
    EXPECT_EQ(sort_field_at(static_cast<int>(full.find("RSS")), plain), SortField::rss);
    EXPECT_EQ(sort_field_at(1, plain), SortField::gpu);
    EXPECT_FALSE(sort_field_at(static_cast<int>(full.find("TIME")), plain));
    EXPECT_FALSE(sort_field_at(static_cast<int>(full.find("COMMAND")), plain));
    const ProcessColumns compact_columns{true, true, false};  // compact drops CPU, RSS, TIME and JOB
    const std::string compact = process_header(compact_columns);
    EXPECT_EQ(compact, " GPU     PID USER        GPU MEM COMMAND");
    EXPECT_FALSE(sort_field_at(static_cast<int>(compact.find("COMMAND")), compact_columns));
    const ProcessColumns job_columns{false, true, false};
    const std::string job = process_header(job_columns);
    EXPECT_NE(job.find(" TIME JOB          COMMAND"), std::string::npos);
    EXPECT_FALSE(sort_field_at(static_cast<int>(job.find("JOB")), job_columns));
}

// --process-util adds GPU% after GPU MEM, in the compact layout too, and a click sorts by it.
TEST(Mouse, TheGpuUtilColumnSortsInBothLayouts) {
    for (const bool compact : {false, true}) {
        const ProcessColumns columns{compact, false, true};
        const std::string header = process_header(columns);
        EXPECT_NE(header.find("GPU MEM  GPU%"), std::string::npos) << header;
        EXPECT_EQ(sort_field_at(static_cast<int>(header.find("GPU%")), columns), SortField::gpu_util);
        EXPECT_EQ(sort_field_at(static_cast<int>(header.find("GPU MEM")) + 4, columns), SortField::gpu_memory);
    }
}

TEST(Mouse, ClickSelectsDoubleClickOpensDetails) {
    ScreenFrame f = reference_frame(80, 24);
    auto c = context_of(f);
    c.now = musatop::testing::mono(10);
    const int top = c.regions.process_top;
    EXPECT_EQ(handle_key(f.state, mouse(MouseAction::left_press, top + 2, 30), c), Effect::redraw);
    EXPECT_EQ(f.state.selection, 2);
    EXPECT_EQ(f.state.modal, Modal::none);
    c.now += 300ms;  // the same row again, in time
    handle_key(f.state, mouse(MouseAction::left_press, top + 2, 30), c);
    ASSERT_EQ(f.state.modal, Modal::details);
    EXPECT_EQ(f.state.modal_process->pid, c.processes[2].pid);
    handle_key(f.state, Key{KeyKind::escape}, c);
    c.now += 2s;  // too slow: two single clicks
    handle_key(f.state, mouse(MouseAction::left_press, top, 30), c);
    c.now += 500ms;
    handle_key(f.state, mouse(MouseAction::left_press, top, 30), c);
    EXPECT_EQ(f.state.modal, Modal::none);
    EXPECT_EQ(f.state.selection, 0);
    // Below the last process, right clicks and releases: nothing.
    EXPECT_EQ(handle_key(f.state, mouse(MouseAction::right_press, top + 1, 30), c), Effect::none);
    EXPECT_EQ(handle_key(f.state, mouse(MouseAction::release, top + 1, 30), c), Effect::none);
    EXPECT_EQ(f.state.selection, 0);
}

TEST(Mouse, HeaderSortsAgainReversesAndGpuRowsPickTheTrend) {
    ScreenFrame f = reference_frame(80, 24);
    auto c = context_of(f);
    const int header = c.regions.process_header;
    handle_key(f.state, mouse(MouseAction::left_press, header, 8), c);  // PID
    EXPECT_EQ(f.state.filter.sort, SortField::pid);
    EXPECT_FALSE(f.state.filter.reverse);
    handle_key(f.state, mouse(MouseAction::left_press, header, 8), c);
    EXPECT_TRUE(f.state.filter.reverse);
    handle_key(f.state, mouse(MouseAction::left_press, header, 36), c);  // CPU%: a new field starts unreversed
    EXPECT_EQ(f.state.filter.sort, SortField::cpu);
    EXPECT_FALSE(f.state.filter.reverse);
    handle_key(f.state, mouse(MouseAction::left_press, c.regions.device_top + 2, 5), c);
    EXPECT_EQ(f.state.trend_target, "uuid:uuid-2");
}

TEST(Mouse, WheelScrollsTheTableTheGpusAndDialogs) {
    ScreenFrame f = reference_frame(80, 24);
    auto c = context_of(f);
    handle_key(f.state, mouse(MouseAction::wheel_down, c.regions.process_top, 10), c);
    EXPECT_EQ(f.state.selection, 3);
    handle_key(f.state, mouse(MouseAction::wheel_up, c.regions.process_top, 10), c);
    EXPECT_EQ(f.state.selection, 0);
    handle_key(f.state, mouse(MouseAction::wheel_down, c.regions.device_top, 10), c);
    EXPECT_EQ(f.state.device_offset, 1);
    draw(f, 80, 24);
    c = context_of(f);
    EXPECT_EQ(c.regions.device_offset, 1);
    handle_key(f.state, mouse(MouseAction::left_press, c.regions.device_top, 5), c);
    EXPECT_EQ(f.state.trend_target, "uuid:uuid-1");  // the page moved: its first row is GPU 1
    handle_key(f.state, Key::character('?'), c);
    handle_key(f.state, mouse(MouseAction::wheel_down, 5, 5), c);
    EXPECT_EQ(f.state.modal_scroll, 3);
    EXPECT_EQ(handle_key(f.state, mouse(MouseAction::left_press, 5, 5), c), Effect::none);
    EXPECT_EQ(f.state.modal, Modal::help);
}
