#include "musatop/collection/procfs/proc_reader.hpp"

#include <fcntl.h>
#include <unistd.h>

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
    for (;;) {
        const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
        if (n < 0) {
            if (errno == EINTR) continue;
            result.error = errno;
            return result;
        }
        if (n == 0) break;
        result.content.append(buffer, static_cast<std::size_t>(n));
        if (result.content.size() >= max_bytes) break;
    }
    return result;
}

}  // namespace musatop::procfs
