#include "musatop/tui/termination.hpp"

#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "musatop/collection/procfs/proc_parse.hpp"
#include "musatop/collection/procfs/proc_reader.hpp"
#include "musatop/tui/ui_state.hpp"
#include "musatop/util/unique_fd.hpp"

namespace musatop::tui {
namespace {

std::string failure_message(int error) {
    if (error == ESRCH) return "Process has already exited.";
    if (error == EPERM || error == EACCES) return "Permission denied: cannot terminate this process.";
    return std::string("Could not terminate process: ") + std::strerror(error) + ".";
}

// Opens a pidfd; -1 with errno set when the kernel refuses or lacks the call.
int open_pidfd(pid_t pid) {
#ifdef SYS_pidfd_open
    return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
#else
    errno = ENOSYS;
    return -1;
#endif
}

int send_through_pidfd(int pidfd, int signal) {
#ifdef SYS_pidfd_send_signal
    return static_cast<int>(::syscall(SYS_pidfd_send_signal, pidfd, signal, nullptr, 0));
#else
    errno = ENOSYS;
    return -1;
#endif
}

}  // namespace

bool target_is_current(const GpuProcess& target, const Snapshot* unfiltered) {
    if (!unfiltered || unfiltered->processes_stale || unfiltered->is_demo()) return false;
    if (!target.create_time || target.status != ProcessStatus::ok) return false;
    for (const auto& row : unfiltered->processes)
        if (identity_of(row) == identity_of(target) && row.status == ProcessStatus::ok) return true;
    return false;
}

std::optional<double> process_create_time(std::int64_t pid) {
    const auto stat_file = procfs::read_file("/proc/" + std::to_string(pid) + "/stat");
    const auto proc_stat = procfs::read_file("/proc/stat");
    if (!stat_file.ok() || !proc_stat.ok()) return std::nullopt;
    const auto stat = procfs::parse_proc_stat(stat_file.content);
    const auto boot = procfs::parse_boot_time(proc_stat.content);
    if (!stat || !boot || stat->state == 'Z' || stat->state == 'X') return std::nullopt;
    const long ticks = ::sysconf(_SC_CLK_TCK) > 0 ? ::sysconf(_SC_CLK_TCK) : 100;
    return procfs::create_time_seconds(*boot, stat->start_ticks, ticks);
}

std::string terminate_process(const GpuProcess& target) {
    if (target.pid <= 1 || target.pid == ::getpid()) return "Refused: protected PID.";
    if (!target.create_time || target.status != ProcessStatus::ok) return "Refused: process identity is not verified.";
    const auto pid = static_cast<pid_t>(target.pid);

    UniqueFd pidfd(open_pidfd(pid));
    const bool fallback = !pidfd.valid() && (errno == ENOSYS || errno == EINVAL);
    if (!pidfd.valid() && !fallback) return failure_message(errno);

    // With the pidfd held, /proc/<pid> is that same instance; a different create
    // time means the PID was reused before we got here.
    if (process_create_time(target.pid) != target.create_time) return "Refused: PID was reused or the process exited.";
    const int result = pidfd.valid() ? send_through_pidfd(pidfd.get(), SIGTERM) : ::kill(pid, SIGTERM);
    if (result != 0) return failure_message(errno);
    return "SIGTERM sent to PID " + std::to_string(target.pid) + ".";
}

}  // namespace musatop::tui
