// Screen geometry as a pure function of the terminal size and what is shown.
#pragma once

namespace musatop::tui {

inline constexpr int kMinWidth = 60;
inline constexpr int kMinHeight = 12;
// Below this the JOB column would leave the command a handful of cells.
inline constexpr int kJobColumnMinWidth = 100;

struct LayoutInput {
    int width = 80;
    int height = 24;
    bool trends_wanted = true;    // the user's `h` preference
    bool compact_wanted = false;  // the user's `c` preference
    int longest_used_total = 0;   // widest "used/total" text among visible GPUs
    bool driver_status = false;   // some visible GPU has the driver's status file
};

struct Layout {
    bool too_small = false;
    int name_width = 0;     // 12 from 80 columns, else names are hidden
    int memory_width = 15;  // USED/TOTAL column
    int bar_width = 1;
    // DRV%: the driver's own overall utilisation beside GMI's UTIL, when a GPU has it
    // (GMI showed 0 % while the driver showed the work, spec §4.2).
    bool driver_column = false;
    bool compact = false;     // compact process columns (forced below 80 columns)
    bool job_column = false;  // JOB (Slurm job, container, unit): full columns from 100 wide
    bool host_panel = false;  // CPU/RAM trend panel beside the GPU one
    int trend_height = 0;     // 0, 7, 9 or 13 rows
    int half_height = 0;      // rows per mirrored graph half
    int min_process_rows = 1;
    int device_page_size = 1;
    bool wide_footer = false;
};

Layout compute_layout(const LayoutInput& input);

// Rows of the device block for this page: the page's devices, or 1 for a message.
int device_rows_drawn(int visible_devices, int device_offset, const Layout& layout);

}  // namespace musatop::tui
