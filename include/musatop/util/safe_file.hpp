// Creating and replacing files where another user may have planted a symlink: the
// state file, --write-config and recordings are written by whoever runs musatop,
// root included (`sudo -E musatop`), often under directories others can write to.
// Nothing here follows a symlink at the file's own name, and a replacement is
// written to a temporary file musatop created itself (O_EXCL) and renamed over the
// name, so a reader sees the old file or the new one, never half of either.
#pragma once

#include <sys/types.h>

#include <functional>
#include <string>
#include <string_view>

#include "musatop/util/result.hpp"
#include "musatop/util/unique_fd.hpp"

namespace musatop {

// Writes `text` to `path` atomically with permissions `mode`. The error names the
// file and the system's reason.
Result<bool> replace_file(const std::string& path, std::string_view text, mode_t mode = 0644);
// The same with the content written by `write` to the temporary file's fd (a
// content too large to hold); its error keeps the old file and is named.
Result<bool> replace_file_with(const std::string& path, const std::function<Result<bool>(int fd)>& write,
                               mode_t mode = 0644);

// open(2) with O_NOFOLLOW | O_CLOEXEC added; a symlink at `path` is refused with
// "PATH is a symbolic link; ..." rather than followed, and anything but a regular
// file (a directory, a FIFO, a device) is refused by name.
Result<UniqueFd> open_regular_for_writing(const std::string& path, int flags, mode_t mode = 0644);

// Why `path` (open as `fd`) cannot be locked: the process that holds its lock, from
// /proc/locks ("PID 4242 (UID 1000) holds its lock"), since any reader of a file
// may lock it; "another process holds its lock" where that cannot be told.
std::string lock_holder_text(int fd);

}  // namespace musatop
