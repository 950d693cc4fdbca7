// pidfds: a descriptor bound to one process instance, so a signal can never reach
// a later process that reuses the PID. Used by the subprocess runner and the
// process actions alike.
#pragma once

#include <sys/types.h>

#include "musatop/util/unique_fd.hpp"

namespace musatop::pidfd {

// An invalid UniqueFd with errno set (ENOSYS: the kernel lacks the call; ESRCH:
// no such process; EINVAL: not a thread-group leader on some kernels).
UniqueFd open(pid_t pid);

// 0, or -1 with errno set.
int send_signal(int pidfd, int signal);

}  // namespace musatop::pidfd
