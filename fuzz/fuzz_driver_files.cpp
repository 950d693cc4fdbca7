// The MUSA driver's procfs files: status, event_report and proc_util, and the
// directory names. Any bytes; every percentage in 0..100, every event within its
// ring, no crash.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "musatop/collection/driver/driver_parse.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace musatop::driver;
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    const auto in_range = [](const std::optional<double>& percent) {
        if (percent && (*percent < 0 || *percent > 100)) std::abort();
    };
    if (const auto status = parse_status(bytes); status.ok()) {
        in_range(status->overall_utilization_percent);
        for (const auto& engine : status->engines) in_range(engine.percent);
        for (const auto& counter : status->counters)
            if (counter.value < 0) std::abort();
    }
    const auto events = parse_event_ring(bytes);
    if (events.size() > size / 128) std::abort();
    for (const auto& event : events)
        if (event.text.size() > 128 || event.time_seconds < 0) std::abort();
    if (const auto rows = parse_proc_util(bytes); rows.ok())
        for (const auto& row : *rows) {
            in_range(row.total_percent);
            for (const auto& engine : row.engines) in_range(engine.percent);
        }
    (void)gpu_directory_number(bytes);
    (void)misc_device_number(bytes);
    return 0;
}
