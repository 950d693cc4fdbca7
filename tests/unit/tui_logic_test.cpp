// The pure parts of the screen: layout, key handling, and whole frames drawn into a
// Canvas from synthetic data (the reference screens of the Python tool).
#include <gtest/gtest.h>

#include <cstdlib>
#include <ctime>

#include "musatop/tui/controller.hpp"
#include "musatop/tui/layout.hpp"
#include "screen_fixture.hpp"

using namespace musatop;
using namespace musatop::tui;
using namespace musatop::tui::testing;

TEST(Layout, SizeRules) {
    const auto l = [](int w, int h, bool trends = true) { return compute_layout({w, h, trends, false, 11}); };
    EXPECT_EQ(l(80, 24).bar_width, 10);
    EXPECT_EQ(l(100, 34).bar_width, 20);
    EXPECT_EQ(l(120, 34).bar_width, 30);
    EXPECT_EQ(l(140, 34).bar_width, 40);
    EXPECT_EQ(l(79, 24).bar_width, 8);
    EXPECT_EQ(l(60, 24).bar_width, 6);
    EXPECT_EQ(l(80, 24).trend_height, 9);
    EXPECT_EQ(l(80, 24).device_page_size, 4);
    EXPECT_EQ(l(80, 34).trend_height, 13);
    EXPECT_EQ(l(80, 34).device_page_size, 8);
    EXPECT_EQ(l(80, 18).trend_height, 7);
    EXPECT_EQ(l(80, 18).device_page_size, 2);
    EXPECT_EQ(l(80, 17).trend_height, 0);
    EXPECT_EQ(l(80, 24, false).device_page_size, 13);
    EXPECT_TRUE(l(79, 24).compact && !l(79, 24).host_panel && l(79, 24).name_width == 0);
    EXPECT_TRUE(l(59, 24).too_small && l(60, 11).too_small && !l(60, 12).too_small);
    EXPECT_EQ(compute_layout({80, 24, true, false, 17}).memory_width, 17);
}

// Screens show local time with its zone: these run in UTC, whatever the machine's zone.
struct InUtc {
    std::string before = std::getenv("TZ") ? std::getenv("TZ") : "";
    bool had = std::getenv("TZ") != nullptr;
    InUtc() { ::setenv("TZ", "UTC", 1), ::tzset(); }
    ~InUtc() { had ? ::setenv("TZ", before.c_str(), 1) : ::unsetenv("TZ"), ::tzset(); }
};

TEST(Screen, Reference80x24) {
    const InUtc utc;
    const ScreenFrame f = reference_frame(80, 24);
    const Canvas& c = f.canvas;
    EXPECT_EQ(c.row_text(0), "musatop 0.2.1 | test-host | CPU 30% | RAM 1.0GiB/8.0GiB");
    EXPECT_EQ(c.row_text(1), "Driver test-driver  GMI test-gmi  MUSA test-musa");
    EXPECT_EQ(c.row_text(2), "Sample 2026-01-01 12:00:00 UTC GPUs 1-4/8");
    EXPECT_EQ(c.row_text(3), "GPU NAME         UTIL            VRAM                 USED/TOTAL TEMP   POWER W");
    EXPECT_EQ(c.row_text(4), "  0 MTT-S5000-0  ██▌         25% ▎            2%     2.0/80.0GiB  40C   120/300");
    EXPECT_EQ(c.row_text(8), "┌ Trend ▲ CPU now 30% ──────────── 100%┬ ▲ ALL 8 VRAM now 2% ──────────── 100%┐");
    EXPECT_EQ(c.row_text(9), "│                                      │                                      │");
    EXPECT_EQ(c.row_text(10),
              "│                                      │" + std::string() + "⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿│");
    EXPECT_EQ(c.row_text(11), "│⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶│⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿│");
    EXPECT_EQ(c.row_text(12), "├5m─────────────3m────0%───────1m───now┼5m─────────────3m────0%───────1m───now┤");
    EXPECT_EQ(c.row_text(13), "│⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉│⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿│");
    EXPECT_EQ(c.row_text(15), "│                                      │⠿⠿⠿⠿⠿⠿⠿⠿⠿⠿⠿⠿⠿⠿⠿⠿⠿⠿⠿⠿⠿⠿⠿⠿⠿⠿⠿⠿⠿⠿⠿⠿⠿⠿⠿⠿⠿⠿│");
    EXPECT_EQ(c.row_text(16), "└ ▼ RAM now 12% | 5 min peaks ──── 100%┴ ▼ UTIL now 25% ───────────────── 100%┘");
    EXPECT_EQ(c.row_text(17), "Processes 12 | sort=gpu_memory");
    // Rows hidden below the page are counted at the header's right (issue 25 #8).
    EXPECT_EQ(c.row_text(18), " GPU     PID USER        GPU MEM   CPU%      RSS     TIME COMMAND       ▼9 more");
    EXPECT_EQ(c.row_text(19).substr(0, 79).size(), c.row_text(19).size());
    EXPECT_EQ(
        c.row_text(19).rfind("   0    1000 test-user      12MiB      0     1MiB 00:02:00 python workload_0.py", 0), 0u);
    EXPECT_EQ(c.row_text(21).rfind("   2    1002", 0), 0u);
    EXPECT_EQ(c.row_text(22), "");
    EXPECT_EQ(c.row_text(23), "q quit ? help g/G GPU h trend s/S sort / find r refresh k term Enter info");
    EXPECT_TRUE(c.at(19, 0).style.reverse);  // the selected row
    EXPECT_EQ(c.at(4, 17).style.color, Color::gradient);
    EXPECT_EQ(c.at(10, 40).style.color, Color::vram);
    EXPECT_EQ(c.at(13, 40).style.color, Color::util);
}

TEST(Screen, Reference60x18) {
    const ScreenFrame f = reference_frame(60, 18);
    EXPECT_EQ(f.canvas.row_text(3), "GPU UTIL        VRAM             USED/TOTAL TEMP   POWER W");
    EXPECT_EQ(f.canvas.row_text(6), "┌ Trend ▲ ALL 8 VRAM now 2% ───────────────────────── 100%┐");
    // 57 cells = 114 samples: the oldest second lands in sample column 1.
    EXPECT_EQ(f.canvas.row_text(7).substr(0, 9), "│⢀⣀");
    EXPECT_EQ(f.canvas.row_text(12), "└ ▼ UTIL now 25% | 5 min peaks ────────────────────── 100%┘");
    EXPECT_EQ(f.canvas.row_text(14), " GPU     PID USER        GPU MEM COMMAND           ▼11 more");
    EXPECT_EQ(f.canvas.row_text(15), "   0    1000 test-user      12MiB python workload_0.py --lo");
    EXPECT_EQ(f.geometry.process_page_size, 1);
}

TEST(Screen, StaleAndUnknownValues) {
    ScreenFrame f = reference_frame(80, 24);
    f.unfiltered.devices_stale = true;
    f.unfiltered.devices[0].gpu_utilization_percent.reset();
    f.unfiltered.devices[0].memory_total_bytes = 0;
    f.unfiltered.devices[1].gpu_utilization_percent = 0;
    f.unfiltered.devices[2].power_limit_w.reset();
    f.unfiltered.devices[2].power_limit_reason = "Current power limit is not reported by GMI";
    f.unfiltered.errors = {"devices: GMI command timed out: mthreads-gmi -q --json"};
    draw(f, 80, 24);
    const Canvas& c = f.canvas;
    EXPECT_EQ(c.row_text(2), "GPU DATA STALE GPUs 1-4/8");
    EXPECT_EQ(c.row_text(4), "  0 MTT-S5000-0  ░░░░░░░░░░  N/A ░░░░░░░░░░  N/A     2.0GiB/0MiB  40C   120/300");
    EXPECT_EQ(c.row_text(5), "  1 MTT-S5000-1               0% ▎            2%     2.0/80.0GiB  40C   120/300");
    EXPECT_EQ(c.row_text(6), "  2 MTT-S5000-2  ██▌         25% ▎            2%     2.0/80.0GiB  40C   120/N/A");
    EXPECT_EQ(c.row_text(8), "┌ Trend ▲ CPU now 30% ──────────── 100%┬ ▲ ALL 8 VRAM now N/A STALE ───── 100%┐");
    EXPECT_EQ(c.row_text(16), "└ ▼ RAM now 12% | 5 min peaks ──── 100%┴ ▼ UTIL now N/A STALE ─────────── 100%┘");
    EXPECT_EQ(c.row_text(22), "devices: GMI command timed out: mthreads-gmi -q --json");
    EXPECT_TRUE(c.at(4, 0).style.dim);
    EXPECT_TRUE(c.at(10, 40).style.dim);  // GPU panel
    EXPECT_FALSE(c.at(11, 1).style.dim);  // host panel
}

TEST(Screen, EmptyAndUnavailable) {
    ScreenFrame f{Snapshot{}};
    f.unfiltered.devices_stale = f.unfiltered.processes_stale = true;
    draw(f, 80, 24);
    EXPECT_EQ(f.canvas.row_text(0), "musatop 0.2.1 | N/A | CPU N/A | RAM N/A/N/A");
    EXPECT_EQ(f.canvas.row_text(2), "GPU DATA STALE | PROCESS DATA STALE");
    EXPECT_EQ(f.canvas.row_text(4), "GPU data unavailable.");
    EXPECT_EQ(f.canvas.row_text(16), "Process data unavailable.");
    f.unfiltered.devices_stale = f.unfiltered.processes_stale = false;
    draw(f, 80, 24);
    EXPECT_EQ(f.canvas.row_text(4), "No GPUs found.");
    EXPECT_EQ(f.canvas.row_text(16), "No GPU processes running.");
}

TEST(Screen, LongHostnameNeverHidesHostMetrics) {
    ScreenFrame f = reference_frame(60, 24);
    f.unfiltered.host.hostname = "worker33083-very-long-hostname-that-does-not-fit.example.com";
    f.unfiltered.host.cpu_percent = 100;
    f.unfiltered.host.memory_used_bytes = 500LL << 30;
    f.unfiltered.host.memory_total_bytes = 1024LL << 30;
    draw(f, 60, 24);
    EXPECT_EQ(f.canvas.row_text(0), "musatop 0.2.1 | worker~ | CPU 100% | RAM 500.0GiB/1024.0GiB");
    draw(f, 80, 24);
    EXPECT_EQ(f.canvas.row_text(0), "musatop 0.2.1 | worker33083-very-long-host~ | CPU 100% | RAM 500.0GiB/1024.0GiB");
}

TEST(Screen, MixedMemoryUnitsNeverMoveThePercentColumns) {
    for (int width : {60, 79, 80, 140}) {
        std::vector<std::size_t> positions;
        for (long mib : {0L, 1L, 900L, 1023L, 1024L, 81920L}) {
            ScreenFrame f = reference_frame(width, 24);
            f.unfiltered.devices[0].memory_used_bytes = mib << 20;
            draw(f, width, 24);
            const std::string row = f.canvas.row_text(4);
            EXPECT_EQ(row.substr(row.size() - 7), "120/300") << width << " " << mib;
            positions.push_back(f.canvas.row_text(4).find('%'));
        }
        for (auto p : positions) EXPECT_EQ(p, positions.front()) << width;
    }
}

TEST(Controller, SelectionFollowsItsProcessAcrossUpdates) {
    ScreenFrame f = reference_frame(80, 24);
    auto context = context_of(f);
    handle_key(f.state, Key{KeyKind::down}, context);
    EXPECT_EQ(f.state.selection, 1);
    handle_key(f.state, Key::character('S'), context);  // reversed: PID 1001 moves
    draw(f, 80, 24);
    context = context_of(f);
    on_new_data(f.state, context);
    EXPECT_EQ(context.processes[static_cast<std::size_t>(f.state.selection)].pid, 1001);
    handle_key(f.state, Key::character('g'), context);
    EXPECT_EQ(f.state.trend_target, "uuid:uuid-0");  // independent of the selection
    EXPECT_EQ(context.processes[static_cast<std::size_t>(f.state.selection)].pid, 1001);
}

TEST(Controller, TrendTargetCyclesAndFallsBackToAll) {
    ScreenFrame f = reference_frame(80, 24);
    auto context = context_of(f);
    handle_key(f.state, Key::character('G'), context);
    EXPECT_EQ(f.state.trend_target, "uuid:uuid-7");
    handle_key(f.state, Key::character('g'), context);
    EXPECT_FALSE(f.state.trend_target);
    handle_key(f.state, Key::character('g'), context);
    EXPECT_EQ(f.state.trend_target, "uuid:uuid-0");
    f.state.filter.gpu_indices = std::set<std::int64_t>{3};
    draw(f, 80, 24);
    context = context_of(f);
    on_new_data(f.state, context);
    EXPECT_FALSE(f.state.trend_target);
}

TEST(Controller, SearchEditing) {
    ScreenFrame f = reference_frame(80, 24);
    const auto context = context_of(f);
    handle_key(f.state, Key::character('/'), context);
    for (char c : std::string("workload_9x")) handle_key(f.state, Key::character(c), context);
    handle_key(f.state, Key{KeyKind::backspace}, context);
    EXPECT_EQ(f.state.search_draft.text, "workload_9");
    handle_key(f.state, Key::character('q'), context);  // typed, not quit
    handle_key(f.state, Key{KeyKind::backspace}, context);
    EXPECT_EQ(handle_key(f.state, Key{KeyKind::enter}, context), Effect::redraw);
    EXPECT_EQ(f.state.filter.search, "workload_9");
    handle_key(f.state, Key::character('/'), context);
    handle_key(f.state, Key::character('X'), context);
    handle_key(f.state, Key{KeyKind::escape}, context);
    EXPECT_EQ(f.state.filter.search, "workload_9");
    draw(f, 80, 24);
    EXPECT_EQ(f.canvas.row_text(17), "Processes 1 | sort=gpu_memory | search=workload_9");
}

TEST(Controller, TerminationDialogKeepsItsTargetAndDefaultsToNo) {
    ScreenFrame f = reference_frame(80, 24);
    auto context = context_of(f);
    handle_key(f.state, Key::character('k'), context);
    ASSERT_EQ(f.state.modal, Modal::confirm);
    EXPECT_EQ(f.state.modal_process->pid, 1000);
    f.state.selection = 5;  // later selection changes never retarget
    EXPECT_EQ(handle_key(f.state, Key::character('x'), context), Effect::redraw);
    EXPECT_EQ(f.state.modal, Modal::confirm);
    EXPECT_EQ(handle_key(f.state, Key::character('y'), context), Effect::confirm_termination);
    EXPECT_EQ(f.state.modal_process->pid, 1000);
    handle_key(f.state, Key{KeyKind::enter}, context);
    EXPECT_EQ(f.state.modal, Modal::none);
    EXPECT_EQ(f.state.message.text, "Termination cancelled.");
}

TEST(Controller, DialogClosesWhenTheTargetChanges) {
    for (int mutation = 0; mutation < 5; ++mutation) {
        ScreenFrame f = reference_frame(80, 24);
        auto context = context_of(f);
        handle_key(f.state, Key::character('k'), context);
        ASSERT_EQ(f.state.modal, Modal::confirm);
        GpuProcess& row = f.unfiltered.processes[0];
        switch (mutation) {
            case 0: f.unfiltered.processes_stale = true; break;
            case 1: f.unfiltered.processes.erase(f.unfiltered.processes.begin()); break;
            case 2: row.start_ticks = 9000; break;  // the PID was reused
            case 3: row.status = ProcessStatus::access_denied; break;
            case 4: row.device_uuid = "other"; break;
        }
        draw(f, 80, 24);
        context = context_of(f);
        on_new_data(f.state, context);
        EXPECT_EQ(f.state.modal, Modal::none) << mutation;
        EXPECT_EQ(f.state.message.text, "Termination cancelled: process changed or process data is stale.") << mutation;
    }
}

TEST(Controller, UnverifiedProcessCannotOpenTheDialog) {
    ScreenFrame f = reference_frame(80, 24);
    f.unfiltered.processes[0].status = ProcessStatus::access_denied;
    draw(f, 80, 24);
    auto context = context_of(f);
    handle_key(f.state, Key::character('k'), context);
    EXPECT_EQ(f.state.modal, Modal::none);
    EXPECT_EQ(f.state.message.text, "Cannot terminate: stale or unverified process data.");
    EXPECT_EQ(handle_key(f.state, Key{KeyKind::interrupt}, context), Effect::quit);
}

// The one line editor behind every prompt: code points, not bytes, are taken back;
// control characters (C0, DEL, C1) never enter the text; the time prompt is ASCII.
TEST(LineEditorTest, EditsAcceptsCancelsAndIgnores) {
    using tui::EditResult;
    using tui::Key;
    using tui::KeyKind;
    tui::LineEditor search;
    EXPECT_EQ(search.apply(Key::character(U'é')), EditResult::edited);
    EXPECT_EQ(search.apply(Key::character(U'x')), EditResult::edited);
    EXPECT_EQ(search.text, "\xc3\xa9x");
    EXPECT_EQ(search.apply(Key{KeyKind::backspace}), EditResult::edited);
    EXPECT_EQ(search.text, "\xc3\xa9");
    for (char32_t control : {U'\x1b', U'\x07', U'\x7f', U'\x9b'})
        EXPECT_EQ(search.apply(Key::character(control)), EditResult::ignored);
    EXPECT_EQ(search.text, "\xc3\xa9");
    EXPECT_EQ(search.apply(Key{KeyKind::enter}), EditResult::accepted);
    EXPECT_EQ(search.apply(Key{KeyKind::escape}), EditResult::cancelled);
    EXPECT_EQ(search.apply(Key{KeyKind::up}), EditResult::ignored);
    tui::LineEditor time{{}, true};
    EXPECT_EQ(time.apply(Key::character(U'é')), EditResult::ignored);
    EXPECT_EQ(time.apply(Key::character(U'+')), EditResult::edited);
    EXPECT_EQ(time.text, "+");
}

// Rows hidden above and below the page are counted, in ASCII too; none when all show.
TEST(Screen, HiddenRowsAboveAndBelowAreCounted) {
    ScreenFrame f = reference_frame(80, 24);
    f.state.process_offset = 2;
    draw(f, 80, 24);
    EXPECT_NE(f.canvas.row_text(18).find("▲2 ▼7 more"), std::string::npos) << f.canvas.row_text(18);
    draw(f, 80, 24, true);
    EXPECT_NE(f.canvas.row_text(18).find("^2 v7 more"), std::string::npos) << f.canvas.row_text(18);
    f.state.process_offset = 0;
    draw(f, 80, 60);
    for (int r = 0; r < f.canvas.height(); ++r) EXPECT_EQ(f.canvas.row_text(r).find(" more"), std::string::npos) << r;
}

// In a dialog PgUp/PgDn move by the dialog's page, Home and End go to the ends.
TEST(Controller, DialogsPageByTheirPageAndHomeEndGoToTheEnds) {
    ScreenFrame f = reference_frame(80, 24);
    auto context = context_of(f);
    context.modal_page_size = 21;
    handle_key(f.state, Key::character('?'), context);
    ASSERT_EQ(f.state.modal, Modal::help);
    handle_key(f.state, Key{KeyKind::page_down}, context);
    EXPECT_EQ(f.state.modal_scroll, 21);
    handle_key(f.state, Key{KeyKind::page_up}, context);
    EXPECT_EQ(f.state.modal_scroll, 0);
    handle_key(f.state, Key{KeyKind::end}, context);
    draw(f, 80, 24);  // the end is where the dialog's last line shows
    const int last = f.state.modal_scroll;
    EXPECT_GT(last, 0);
    const std::string lines = f.canvas.row_text(22);  // "Lines 3-23/23": the last line shown is the last
    const auto dash = lines.find('-'), slash = lines.find('/');
    ASSERT_EQ(lines.rfind("Lines ", 0), 0u) << lines;
    ASSERT_NE(slash, std::string::npos) << lines;
    EXPECT_EQ(lines.substr(dash + 1, slash - dash - 1), lines.substr(slash + 1, lines.find_last_not_of(' ') - slash))
        << lines;
    handle_key(f.state, Key{KeyKind::home}, context);
    EXPECT_EQ(f.state.modal_scroll, 0);
}

// `/` filters as it is typed; Esc puts back the search there was, Enter keeps the
// new one; Ctrl-U and Ctrl-W edit as in a shell.
TEST(Controller, SearchFiltersAsItIsTypedAndEscPutsTheOldOneBack) {
    ScreenFrame f = reference_frame(80, 24);
    auto context = context_of(f);
    f.state.filter.search = "workload_1";
    handle_key(f.state, Key::character('/'), context);
    handle_key(f.state, Key::character('1'), context);  // "workload_11"
    EXPECT_EQ(f.state.filter.search, "workload_11");    // at once, before Enter
    draw(f, 80, 24);
    EXPECT_EQ(f.view.processes.size(), 1u);
    handle_key(f.state, Key{KeyKind::escape}, context);
    EXPECT_EQ(f.state.filter.search, "workload_1");
    EXPECT_FALSE(f.state.search_editing);
    handle_key(f.state, Key::character('/'), context);
    handle_key(f.state, Key::character(0x17), context);  // Ctrl-W: the word goes
    EXPECT_EQ(f.state.filter.search, "");
    for (char c : std::string("python w")) handle_key(f.state, Key::character(static_cast<char32_t>(c)), context);
    handle_key(f.state, Key::character(0x17), context);
    EXPECT_EQ(f.state.filter.search, "python ");
    handle_key(f.state, Key::character(0x15), context);  // Ctrl-U: all of it
    EXPECT_EQ(f.state.search_draft.text, "");
    handle_key(f.state, Key::character('7'), context);
    handle_key(f.state, Key{KeyKind::enter}, context);
    EXPECT_EQ(f.state.filter.search, "7");
    EXPECT_FALSE(f.state.search_editing);
}
