// The only code that reads /proc: small whole-file reads with errno kept, so that
// callers can tell "gone" from "not allowed".
#pragma once

#include <string>

namespace musatop::procfs {

struct FileRead {
    int error = 0;  // 0 on success, else errno (ENOENT/ESRCH: gone, EACCES/EPERM: denied)
    std::string content;
    bool ok() const { return error == 0; }
};

FileRead read_file(const std::string& path, std::size_t max_bytes = 1 << 20);

// Whether this host's /proc hides other users' processes (hidepid).
bool proc_hides_processes();

}  // namespace musatop::procfs
