#include "musatop/output/metric_table.hpp"

#include <cmath>

namespace musatop::metrics {

const std::array<GpuMetric, 23> kGpuMetrics = {{
    {"musatop_gpu_utilization_ratio", "GPU utilisation reported by mthreads-gmi, 0 to 1.",
     &Device::gpu_utilization_percent, -2, true},
    {"musatop_gpu_memory_busy_ratio", "Memory-controller load reported by mthreads-gmi, 0 to 1 (not memory occupancy).",
     &Device::memory_utilization_percent, -2},
    {"musatop_gpu_memory_used_bytes", "GPU memory in use, in bytes.", &Device::memory_used_bytes, 0, true},
    {"musatop_gpu_memory_total_bytes", "GPU memory size, in bytes.", &Device::memory_total_bytes, 0, true},
    {"musatop_gpu_temperature_celsius", "GPU temperature, in degrees Celsius.", &Device::temperature_c, 0, true},
    {"musatop_gpu_power_watts", "GPU power draw, in watts.", &Device::power_draw_w, 0, true},
    {"musatop_gpu_power_limit_watts", "GPU power limit, in watts.", &Device::power_limit_w},
    {"musatop_gpu_graphics_clock_hertz", "GPU graphics clock, in hertz.", &Device::graphics_clock_mhz, 6},
    {"musatop_gpu_memory_clock_hertz", "GPU memory clock, in hertz.", &Device::memory_clock_mhz, 6},
    // Drawn: through Prometheus it tells "no processes" from "processes not exported".
    {"musatop_gpu_processes", "Processes on the GPU (rows of the GMI process table).", std::monostate{}, 0, true,
     Derived::process_count},
    // Link, engines, fan and limits; named like node_exporter's node_pcidevice_*_link_width.
    {"musatop_gpu_pcie_link_generation", "PCIe generation the link runs at.", &Device::pcie_generation_current},
    {"musatop_gpu_pcie_link_generation_max", "Highest PCIe generation the link supports.",
     &Device::pcie_generation_max},
    {"musatop_gpu_pcie_link_width", "PCIe lanes the link runs with.", &Device::pcie_link_width_current},
    {"musatop_gpu_pcie_link_width_max", "PCIe lanes the link supports at most.", &Device::pcie_link_width_max},
    {"musatop_gpu_encoder_utilization_ratio", "Video encoder utilisation reported by mthreads-gmi, 0 to 1.",
     &Device::encoder_utilization_percent, -2},
    {"musatop_gpu_decoder_utilization_ratio", "Video decoder utilisation reported by mthreads-gmi, 0 to 1.",
     &Device::decoder_utilization_percent, -2},
    {"musatop_gpu_fan_speed_ratio", "Fan speed reported by mthreads-gmi, 0 to 1 (the first fan with a reading).",
     &Device::fan_speed_percent, -2},
    {"musatop_gpu_graphics_clock_max_hertz", "Highest graphics clock of the GPU, in hertz.",
     &Device::graphics_clock_max_mhz, 6},
    {"musatop_gpu_memory_clock_max_hertz", "Highest memory clock of the GPU, in hertz.", &Device::memory_clock_max_mhz,
     6},
    {"musatop_gpu_retired_pages_single_bit", "Memory pages retired after single-bit ECC errors.",
     &Device::retired_pages_single_bit},
    {"musatop_gpu_retired_pages_double_bit", "Memory pages retired after double-bit ECC errors.",
     &Device::retired_pages_double_bit},
    {"musatop_gpu_retired_pages_pending", "1 when retired memory pages wait for a GPU reset.",
     &Device::retired_pages_pending},
    {"musatop_gpu_health_findings", "Health findings of the GPU (docs/health.md); the texts are in /api/v1/snapshot.",
     std::monostate{}, 0, false, Derived::health_findings},
}};

std::optional<double> series_value(const GpuMetric& metric, const Device& device) {
    return std::visit(
        [&](auto member) -> std::optional<double> {
            if constexpr (std::is_same_v<decltype(member), std::monostate>) {
                return std::nullopt;
            } else {
                const auto& value = device.*member;
                if (!value) return std::nullopt;
                const double scale = std::pow(10.0, std::abs(metric.power));
                const double raw = static_cast<double>(*value);
                const double number = metric.power < 0 ? raw / scale : raw * scale;
                return std::isfinite(number) ? std::optional(number) : std::nullopt;
            }
        },
        metric.member);
}

void read_back(const GpuMetric& metric, Device& device, double value) {
    if (!std::isfinite(value)) return;  // unknown stays unknown
    const double scale = std::pow(10.0, std::abs(metric.power));
    const double model = metric.power < 0 ? value * scale : value / scale;
    std::visit(
        [&](auto member) {
            using Member = decltype(member);
            if constexpr (std::is_same_v<Member, std::optional<double> Device::*>) device.*member = model;
            else if constexpr (std::is_same_v<Member, std::optional<std::int64_t> Device::*>) {
                if (std::fabs(model) < 9.2e18) device.*member = std::llround(model);
            } else if constexpr (std::is_same_v<Member, std::optional<bool> Device::*>) device.*member = model != 0;
        },
        metric.member);
}

const GpuMetric* find_gpu_metric(std::string_view name) {
    for (const auto& metric : kGpuMetrics)
        if (metric.name == name) return &metric;
    return nullptr;
}

}  // namespace musatop::metrics
