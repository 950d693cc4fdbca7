// Frames of the main screen drawn from synthetic data (the reference screens of
// the Python tool), shared by the screen, controller and mouse tests.
#pragma once

#include "musatop/model/history.hpp"
#include "snapshot_builder.hpp"
#include "musatop/tui/controller.hpp"
#include "musatop/tui/screens/main_screen.hpp"
#include "test_support.hpp"

namespace musatop::tui::testing {

inline Snapshot reference_snapshot(int gpus = 8, int processes = 12) {
    return musatop::testing::SnapshotBuilder()
        .at(WallTime(std::chrono::seconds(1767268800)))  // 2026-01-01T12:00:00Z
        .with([](Snapshot& s) {
            s.devices_sampled_at.reset();
            s.processes_sampled_at.reset();
            s.driver_version = "test-driver";
            s.gmi_version = "test-gmi";
            s.musa_version = "test-musa";
        })
        .host("test-host", 30, 1LL << 30, 8LL << 30)
        .gpus(gpus,
              [](Device& d, int i) {
                  d.name = "MTT-S5000-" + std::to_string(i);
                  d.gpu_utilization_percent = 25;
                  d.memory_used_bytes = 2LL << 30;
                  d.memory_total_bytes = 80LL << 30;
                  d.temperature_c = 40;
                  d.power_draw_w = 120;
                  d.power_limit_w = 300;
              })
        .processes(processes,
                   [](GpuProcess& p, int i) {
                       p.gpu_memory_bytes = static_cast<std::int64_t>(12 - i) << 20;
                       p.username = "test-user";
                       p.command =
                           "python workload_" + std::to_string(i) + ".py --long-argument=" + std::string(160, 'x');
                       p.cpu_percent = i;
                       p.rss_bytes = 1 << 20;
                       p.running_seconds = 120;
                       p.create_time = 100;
                       p.start_ticks = 5000;
                       p.status = ProcessStatus::ok;
                   })
        .build();
}

inline History reference_history(const Snapshot& s) {
    History h;
    Snapshot peak = s;
    for (auto& d : peak.devices) {
        d.gpu_utilization_percent = 99;
        d.memory_used_bytes = static_cast<std::int64_t>(0.69 * (80LL << 30));
    }
    peak.host.cpu_percent = 30;
    peak.host.memory_used_bytes = static_cast<std::int64_t>(0.12 * (8LL << 30));
    for (int t = 701; t <= 1000; ++t) h.record(peak, musatop::testing::mono(t));
    return h;
}

struct ScreenFrame {
    explicit ScreenFrame(Snapshot snapshot) : unfiltered(std::move(snapshot)) {}
    Snapshot unfiltered;
    Snapshot view;
    History history;
    UiState state;
    Canvas canvas{80, 24};
    ScreenGeometry geometry;
};

inline void draw(ScreenFrame& f, int width, int height, bool ascii = false) {
    f.view = apply_view(f.unfiltered, effective_filter(f.state));
    f.canvas = Canvas(width, height);
    ScreenInput in;
    in.unfiltered = &f.unfiltered;
    in.view = &f.view;
    in.history = &f.history;
    in.state = &f.state;
    in.now_second = 1000;
    in.now = musatop::testing::mono(1000);
    in.title = "musatop 0.2.1";
    in.ascii = ascii;
    f.geometry = draw_screen(f.canvas, in);
}

inline ScreenFrame reference_frame(int width, int height) {
    ScreenFrame f(reference_snapshot());
    f.history = reference_history(f.unfiltered);
    draw(f, width, height);
    return f;
}

inline ScreenContext context_of(const ScreenFrame& f) {
    ScreenContext c;
    c.unfiltered = &f.unfiltered;
    c.processes = f.view.processes;
    c.devices = f.view.devices;
    c.process_page_size = f.geometry.process_page_size;
    c.device_page_size = f.geometry.layout.device_page_size;
    c.regions = mouse_regions(f.geometry);
    return c;
}

}  // namespace musatop::tui::testing
