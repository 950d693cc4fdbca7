#include "musatop/util/pidfd.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

namespace musatop::pidfd {

UniqueFd open(pid_t pid) {
#ifdef SYS_pidfd_open
    const long fd = ::syscall(SYS_pidfd_open, pid, 0);
    return UniqueFd(fd >= 0 ? static_cast<int>(fd) : -1);
#else
    errno = ENOSYS;
    return UniqueFd();
#endif
}

int send_signal(int pidfd, int signal) {
#ifdef SYS_pidfd_send_signal
    return static_cast<int>(::syscall(SYS_pidfd_send_signal, pidfd, signal, nullptr, 0));
#else
    errno = ENOSYS;
    return -1;
#endif
}

}  // namespace musatop::pidfd
