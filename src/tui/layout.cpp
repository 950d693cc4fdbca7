#include "musatop/tui/layout.hpp"

#include <algorithm>

namespace musatop::tui {
namespace {

constexpr int kDriverColumnWidth = 6;  // " 100%"

}  // namespace

Layout compute_layout(const LayoutInput& in) {
    Layout l;
    l.too_small = in.width < kMinWidth || in.height < kMinHeight;
    const bool wide = in.width >= 80;
    l.name_width = wide ? 12 : 0;
    l.memory_width = std::max(15, in.longest_used_total);
    l.driver_column = in.driver_status;
    l.bar_width = std::max(1, (in.width - 1 - 44 - (l.memory_width - 13) - (l.name_width ? l.name_width + 1 : 0) -
                               (l.driver_column ? kDriverColumnWidth : 0)) /
                                  2);
    if (!wide) l.bar_width = std::min(l.bar_width, 8);
    l.compact = in.compact_wanted || !wide;
    l.job_column = !l.compact && in.width >= kJobColumnMinWidth;
    l.host_panel = wide;
    l.wide_footer = wide;
    if (in.trends_wanted && in.height >= 18) l.trend_height = in.height >= 34 ? 13 : (in.height >= 24 ? 9 : 7);
    l.half_height = l.trend_height ? (l.trend_height - 3) / 2 : 0;
    l.min_process_rows = in.height >= 34 ? 5 : (in.height >= 24 ? 3 : 1);
    l.device_page_size = std::max(1, in.height - 8 - l.trend_height - l.min_process_rows);
    return l;
}

int device_rows_drawn(int visible_devices, int device_offset, const Layout& layout) {
    if (visible_devices == 0) return 1;
    return std::max(1, std::min(layout.device_page_size, visible_devices - device_offset));
}

}  // namespace musatop::tui
