// Full-screen dialogs: help, process details and the SIGTERM confirmation.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "musatop/model/snapshot.hpp"
#include "musatop/tui/canvas.hpp"

namespace musatop::tui {

std::vector<std::string> help_lines(bool replay = false);  // the keys of this screen first

// Dialogs show a command line up to this many bytes, then a marker with its size:
// a 1 MB command line would otherwise be megabytes of wrapped rows per redraw.
inline constexpr std::size_t kDialogCommandBytes = 64 * 1024;

// The command as a dialog shows it: sanitised, cut at kDialogCommandBytes.
std::string dialog_command(const std::optional<std::string>& command);

// PID, user, GPU and UUID, status, create time (local), memory, CPU, RSS, running
// time, Slurm job, container, pod, unit and the command (complete up to 64 KiB).
std::vector<std::string> process_detail_lines(const GpuProcess& process);

// Identity, link, engines, clocks, fan, ECC, retired pages and the findings.
std::vector<std::string> gpu_detail_lines(const Device& device);

// Word-wraps to `width` cells; words longer than a line are broken. Continuation
// lines are indented by `hanging` cells (the help's, so a key's text reads as one).
std::vector<std::string> wrap_lines(const std::vector<std::string>& lines, int width, int hanging = 0);

struct ModalView {
    std::string title;
    std::vector<std::string> lines;
    std::string footer;
    Style title_style{Color::none, 0, true};
    int hanging_indent = 0;  // for continuation lines of a wrapped line
};

// Draws the dialog; `scroll` is clamped and written back.
void draw_modal(Canvas& canvas, const ModalView& view, int& scroll);

}  // namespace musatop::tui
