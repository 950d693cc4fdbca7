#include "musatop/collection/demo/demo_source.hpp"

#include <array>
#include <cmath>
#include <string>

namespace musatop {
namespace {

constexpr int kDemoGpus = 8;
constexpr std::int64_t kGiB = 1LL << 30;

struct DemoJob {
    int gpu;
    std::int64_t pid;  // above the largest pid_max (2^22): can never name a real process
    const char* user;
    const char* command;
    double memory_gib;
};

constexpr std::array<DemoJob, 6> jobs = {{
    {0, 5000001, "alice", "python train.py --model llama-7b --batch 32", 61.5},
    {1, 5000001, "alice", "python train.py --model llama-7b --batch 32", 61.5},
    {2, 5000002, "bob", "torchrun --nproc 2 finetune.py --lr 3e-5", 38.0},
    {3, 5000002, "bob", "torchrun --nproc 2 finetune.py --lr 3e-5", 38.0},
    {5, 5000003, "carol", "vllm serve qwen2-7b --port 8000", 72.2},
    {6, 5000004, "dave", "./bench_gemm --size 8192", 4.5},
}};

// One owner of each kind: a Slurm step, a Docker container, a Kubernetes pod, a
// login session.
Attribution demo_owner(std::int64_t pid) {
    Attribution a;
    switch (pid) {
        case 5000001:
            a.slurm_job_id = 4242;
            a.slurm_step = "0";
            break;
        case 5000002:
            a.container_runtime = "docker";
            a.container_id = "3f9a1c7e5b2d" + std::string(52, '0');
            a.systemd_unit = "docker-" + *a.container_id + ".scope";
            break;
        case 5000003:
            a.container_runtime = "containerd";
            a.container_id = "8c41d0e2a9f6" + std::string(52, '1');
            a.pod_uid = "5d2e8f10-7a3b-4c69-9e21-0b8d4f6a1c37";
            a.pod_qos_class = "guaranteed";
            break;
        default: a.systemd_unit = "session-3.scope";
    }
    return a;
}

// Identity and link readings; GPU 6 sits on a narrowed link, so the demo shows a finding.
void set_demo_identity(Device& d, int i, double load) {
    d.pcie_generation_current = 5;
    d.pcie_generation_max = 5;
    d.pcie_link_width_current = i == 6 ? 8 : 16;
    d.pcie_link_width_max = 16;
    d.encoder_utilization_percent = 0.0;
    d.decoder_utilization_percent = 0.0;
    d.fan_speed_percent = std::round(30 + 50 * load);
    d.graphics_clock_max_mhz = 1750.0;
    d.memory_clock_max_mhz = 2500.0;
    d.performance_state = "P0";
    d.ecc_mode = "On-die, EDC";
    d.retired_pages_single_bit = 0;
    d.retired_pages_double_bit = 0;
    d.retired_pages_pending = false;
    d.serial_number = "DEMO0000000" + std::to_string(i);
    d.bios_version = "4.3.41";
}

double wave(double t, double period, double phase) { return 0.5 + 0.5 * std::sin(2 * M_PI * t / period + phase); }

}  // namespace

Snapshot make_demo_snapshot(double t, WallTime now) {
    Snapshot s;
    s.sampled_at = now;
    s.devices_sampled_at = now;
    s.processes_sampled_at = now;
    s.driver_version = "demo";
    s.gmi_version = "demo";
    s.musa_version_reason = "demo mode: no Toolkit lookup";
    s.device_source = DeviceSource::demo;
    for (int i = 0; i < kDemoGpus; ++i) {
        Device d;
        d.index = i;
        d.uuid = "00000000-demo-0000-0000-00000000000" + std::to_string(i);
        d.name = "MTT S5000";
        d.bus_id = "00000000:" + std::string(i < 5 ? "1" : "9") + std::to_string(i) + ":00.0";
        double used_gib = 0.4;
        for (const auto& job : jobs)
            if (job.gpu == i) used_gib += job.memory_gib;
        const double load = (i == 4 || i == 7) ? 0.02 * wave(t, 11, i) : 0.35 + 0.6 * wave(t, 40 + 7 * i, i);
        d.gpu_utilization_percent = std::round(load * 1000) / 10;
        d.memory_utilization_percent = std::round(load * 600) / 10;
        d.memory_total_bytes = 80 * kGiB;
        d.memory_used_bytes = static_cast<std::int64_t>((used_gib + 2 * wave(t, 23, i)) * kGiB);
        d.memory_free_bytes = *d.memory_total_bytes - *d.memory_used_bytes;
        d.temperature_c = std::round(35 + 40 * load);
        d.power_draw_w = std::round((90 + 700 * load) * 100) / 100;
        if (i == 7) {
            d.power_limit_reason = "Current power limit is not reported by GMI";  // shows the N/A path
        } else {
            d.power_limit_w = 950.0;
        }
        d.graphics_clock_mhz = 1000 + std::round(750 * load);
        d.memory_clock_mhz = 2500.0;
        set_demo_identity(d, i, load);
        s.devices.push_back(std::move(d));
    }
    const double now_seconds = std::chrono::duration<double>(now.time_since_epoch()).count();
    for (const auto& job : jobs) {
        GpuProcess p;
        p.device_index = job.gpu;
        p.pid = job.pid;
        p.device_uuid = s.devices[static_cast<std::size_t>(job.gpu)].uuid;
        p.gpu_memory_bytes = static_cast<std::int64_t>(job.memory_gib * kGiB);
        p.username = job.user;
        p.command = job.command;
        p.cpu_percent = std::round((20 + 80 * wave(t, 17, static_cast<double>(job.pid % 7))) * 10) / 10;
        p.rss_bytes = static_cast<std::int64_t>((2 + job.memory_gib / 10) * kGiB);
        p.running_seconds = 3600.0 * static_cast<double>(job.pid % 5 + 1) + t;
        p.create_time = std::round((now_seconds - *p.running_seconds) * 100) / 100;
        p.start_ticks = static_cast<std::uint64_t>(job.pid);  // stable: the selection follows it
        p.status = ProcessStatus::ok;
        p.attribution = demo_owner(job.pid);
        s.processes.push_back(std::move(p));
    }
    return s;
}

DemoSource::DemoSource(HealthThresholds health) : started_(mono_now()), health_(health) {}

Snapshot DemoSource::collect(const CancelToken& /*cancel*/) {
    const double elapsed = std::chrono::duration<double>(mono_now() - started_).count();
    Snapshot snapshot = make_demo_snapshot(elapsed, wall_now());
    health_.assess(snapshot, mono_now());
    host_.sample_into(snapshot);
    return snapshot;
}

}  // namespace musatop
