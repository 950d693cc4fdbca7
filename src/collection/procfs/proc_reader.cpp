#include "musatop/collection/procfs/proc_reader.hpp"
#include "musatop/collection/procfs/proc_parse.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "musatop/util/unique_fd.hpp"

namespace musatop::procfs {

FileRead read_file(const std::string& path, std::size_t max_bytes) {
    FileRead result;
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd.valid()) {
        result.error = errno;
        return result;
    }
    char buffer[8192];
    while (result.content.size() < max_bytes) {  // never more than asked: a bound is a bound
        const ssize_t n = ::read(fd.get(), buffer, std::min(sizeof buffer, max_bytes - result.content.size()));
        if (n < 0) {
            if (errno == EINTR) continue;
            result.error = errno;
            return result;
        }
        if (n == 0) break;
        result.content.append(buffer, static_cast<std::size_t>(n));
    }
    return result;
}

bool proc_hides_processes() {
    const auto mountinfo = read_file("/proc/self/mountinfo", 1 << 20);
    return mountinfo.ok() && mountinfo_hides_processes(mountinfo.content);
}

}  // namespace musatop::procfs
