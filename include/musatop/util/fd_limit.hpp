// The soft limit of open files raised toward the hard one, as Go's runtime does for
// every Go program: the usual soft limit of 1024 is a leftover of select(), which
// musatop never uses. Modes that open one descriptor per node or per part ask for
// as many as the hard limit allows; the agent only for what its cap and the
// sampler need.
#pragma once

#include <sys/resource.h>

#include <algorithm>
#include <limits>

namespace musatop {

inline void raise_open_file_limit(rlim_t at_most = std::numeric_limits<rlim_t>::max()) {
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
    const rlim_t wanted = std::min(limit.rlim_max, at_most);
    if (limit.rlim_cur >= wanted) return;
    limit.rlim_cur = wanted;
    ::setrlimit(RLIMIT_NOFILE, &limit);
}

}  // namespace musatop
