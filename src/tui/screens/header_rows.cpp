// Rows 0-2: title with host metrics, versions, and the data state.
#include <string>

#include "musatop/output/format.hpp"
#include "musatop/output/sanitize.hpp"
#include "musatop/tui/screens/screen_input.hpp"

namespace musatop::tui {
namespace {

std::string header_line(const ScreenInput& in, int width) {
    const Snapshot& s = *in.unfiltered;
    const std::string metrics = "CPU " + format_number(s.host.cpu_percent, "%") + " | RAM " +
                                format_bytes(s.host.memory_used_bytes) + "/" + format_bytes(s.host.memory_total_bytes);
    const std::string badge = in.badge.empty() ? "" : " " + sanitize(in.badge);
    std::string title = in.title + (s.is_demo() ? " DEMO" : "") + badge;
    if (display_width(title) + 3 + display_width(metrics) > width - 1) {
        // Short form: the badge's first word ("REC") stays visible.
        const std::string short_badge = in.badge.empty() ? "" : " " + in.badge.substr(0, in.badge.find(' '));
        title = (s.is_demo() ? "DEMO" : "musatop") + short_badge;
    }
    // The host metrics always survive; the hostname gets what is left.
    const int budget = width - 1 - display_width(title) - display_width(metrics) - 6;
    if (budget < 4) return title + " | " + metrics;
    std::string host = sanitize_or_na(s.host.hostname);
    if (display_width(host) > budget) host = truncate_to_width(host, budget - 1) + "~";
    return title + " | " + host + " | " + metrics;
}

}  // namespace

void draw_header_rows(Canvas& canvas, const ScreenInput& in, const ScreenGeometry& geometry) {
    const Snapshot& s = *in.unfiltered;
    canvas.put(0, 0, header_line(in, canvas.width()), kBold);
    std::string versions = "Driver " + sanitize_or_na(s.driver_version) + "  GMI " + sanitize_or_na(s.gmi_version) +
                           "  MUSA " + sanitize_or_na(s.musa_version);
    if (s.device_source == DeviceSource::gmi_summary) versions += "  (GPUs from the summary table)";
    canvas.put(1, 0, versions);

    std::string state;
    if (s.devices_stale) state = "GPU DATA STALE";
    if (s.processes_stale) state += std::string(state.empty() ? "" : " | ") + "PROCESS DATA STALE";
    const bool stale = !state.empty();
    if (!stale) state = "Sample " + format_local_seconds(s.sampled_at);  // local, as every screen shows time
    const int visible = static_cast<int>(in.view->devices.size());
    if (visible > geometry.layout.device_page_size) {
        const int last = std::min(visible, geometry.device_offset + geometry.layout.device_page_size);
        state += " GPUs " + std::to_string(geometry.device_offset + 1) + "-" + std::to_string(last) + "/" +
                 std::to_string(visible);
    }
    canvas.put(2, 0, state, stale ? kDim : Style{});
}

}  // namespace musatop::tui
