#include "musatop/actions/process_actions.hpp"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "musatop/collection/procfs/live_process.hpp"
#include "musatop/util/pidfd.hpp"

namespace musatop::actions {
namespace {

std::string failure_message(int error) {
    if (error == ESRCH) return "Process has already exited.";
    if (error == EPERM || error == EACCES) return "Permission denied: cannot terminate this process.";
    return std::string("Could not terminate process: ") + std::strerror(error) + ".";
}

}  // namespace

std::string terminate_process(const GpuProcess& target) {
    if (target.pid <= 1 || target.pid == ::getpid()) return "Refused: protected PID.";
    if (!target.start_ticks || target.status != ProcessStatus::ok) return "Refused: process identity is not verified.";
    const auto pid = static_cast<pid_t>(target.pid);

    // GMI may name a thread; a signal to its TID would end the whole process.
    if (procfs::is_process_leader(target.pid) == false) return "Refused: PID is a thread, not a process.";
    UniqueFd pidfd = pidfd::open(pid);
    // kill() only where the kernel lacks pidfd_open, never for any other refusal
    // (EINVAL, or ENOENT on newer kernels, for a thread that became one meanwhile).
    const bool fallback = !pidfd.valid() && errno == ENOSYS;
    if (!pidfd.valid() && (errno == EINVAL || errno == ENOENT)) return "Refused: PID is a thread, not a process.";
    if (!pidfd.valid() && !fallback) return failure_message(errno);

    // With the pidfd held, /proc/<pid> is that same instance; other start ticks
    // mean the PID was reused before we got here.
    if (procfs::live_start_ticks(target.pid) != target.start_ticks)
        return "Refused: PID was reused or the process exited.";
    const int result = pidfd.valid() ? pidfd::send_signal(pidfd.get(), SIGTERM) : ::kill(pid, SIGTERM);
    if (result != 0) return failure_message(errno);
    return "SIGTERM sent to PID " + std::to_string(target.pid) + ".";
}

}  // namespace musatop::actions
