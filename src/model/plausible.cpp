#include "musatop/model/plausible.hpp"

#include <cmath>
#include <limits>
#include <optional>

namespace musatop {
namespace {

template <typename T>
void bound(std::optional<T>& value, double low, double high) {
    if (!value) return;
    const double v = static_cast<double>(*value);
    if (!std::isfinite(v) || v < low || v > high) value.reset();
}

void bound_bytes(std::optional<std::int64_t>& value) { bound(value, 0, static_cast<double>(kMaxPlausibleBytes)); }

void check(Device& d) {
    for (auto* percent : {&d.gpu_utilization_percent, &d.memory_utilization_percent, &d.encoder_utilization_percent,
                          &d.decoder_utilization_percent, &d.fan_speed_percent})
        bound(*percent, 0, 100);
    for (auto* bytes : {&d.memory_used_bytes, &d.memory_total_bytes, &d.memory_free_bytes}) bound_bytes(*bytes);
    bound(d.temperature_c, -100, 300);
    for (auto* watts : {&d.power_draw_w, &d.power_limit_w}) bound(*watts, 0, 1e5);
    for (auto* mhz : {&d.graphics_clock_mhz, &d.memory_clock_mhz, &d.graphics_clock_max_mhz, &d.memory_clock_max_mhz})
        bound(*mhz, 0, 1e6);
    for (auto* generation : {&d.pcie_generation_current, &d.pcie_generation_max}) bound(*generation, 0, 100);
    for (auto* width : {&d.pcie_link_width_current, &d.pcie_link_width_max}) bound(*width, 0, 1024);
    for (auto* pages : {&d.retired_pages_single_bit, &d.retired_pages_double_bit}) bound(*pages, 0, 1e12);
}

void check(GpuProcess& p) {
    bound_bytes(p.gpu_memory_bytes);
    bound_bytes(p.rss_bytes);
    bound(p.cpu_percent, 0, 1e6);       // per process, summed over cores: 100 % per core
    bound(p.create_time, -1e12, 1e12);  // a Unix time; finite is what matters (replays of old demos go below 0)
    bound(p.running_seconds, 0, 1e11);
}

}  // namespace

void drop_implausible(Snapshot& snapshot) {
    for (auto& device : snapshot.devices) check(device);
    for (auto& process : snapshot.processes) check(process);
    bound(snapshot.host.cpu_percent, 0, 100);
    bound_bytes(snapshot.host.memory_used_bytes);
    bound_bytes(snapshot.host.memory_total_bytes);
}

std::int64_t saturating_add(std::int64_t a, std::int64_t b) {
    std::int64_t sum = 0;
    if (!__builtin_add_overflow(a, b, &sum)) return sum;
    return b > 0 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
}

}  // namespace musatop
