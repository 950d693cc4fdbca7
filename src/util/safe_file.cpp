#include "musatop/util/safe_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

namespace musatop {
namespace {

std::string reason(const std::string& path) { return path + ": " + std::strerror(errno); }

bool write_all(int fd, std::string_view text) {
    while (!text.empty()) {
        const ssize_t n = ::write(fd, text.data(), text.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        text.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

}  // namespace

Result<UniqueFd> open_regular_for_writing(const std::string& path, int flags, mode_t mode) {
    UniqueFd fd(::open(path.c_str(), flags | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, mode));
    if (!fd.valid()) {
        if (errno == ELOOP) return Error{path + " is a symbolic link; musatop writes only to the file itself"};
        return Error{reason(path)};
    }
    struct stat info {};
    if (::fstat(fd.get(), &info) != 0) return Error{reason(path)};
    if (!S_ISREG(info.st_mode)) return Error{path + " is not a regular file"};
    ::fcntl(fd.get(), F_SETFL, ::fcntl(fd.get(), F_GETFL) & ~O_NONBLOCK);  // O_NONBLOCK only kept a FIFO from blocking
    return fd;
}

Result<bool> replace_file_with(const std::string& path, const std::function<Result<bool>(int fd)>& write, mode_t mode) {
    std::string name = path + ".tmp.XXXXXX";
    std::vector<char> buffer(name.begin(), name.end());
    buffer.push_back('\0');
    UniqueFd fd(::mkostemp(buffer.data(), O_CLOEXEC));  // O_CREAT | O_EXCL: never an existing name
    const std::string temporary(buffer.data());
    if (!fd.valid()) return Error{reason(temporary)};
    if (::fchmod(fd.get(), mode) != 0) {
        const Error error{reason(temporary)};
        ::unlink(temporary.c_str());
        return error;
    }
    if (auto written = write(fd.get()); !written.ok()) {
        ::unlink(temporary.c_str());
        return Error{temporary + ": " + written.error()};
    }
    const bool synced = ::fsync(fd.get()) == 0;
    if (!synced || ::rename(temporary.c_str(), path.c_str()) != 0) {  // rename replaces a symlink, not its target
        const Error error{synced ? reason(path) : reason(temporary)};
        ::unlink(temporary.c_str());
        return error;
    }
    return true;
}

Result<bool> replace_file(const std::string& path, std::string_view text, mode_t mode) {
    return replace_file_with(
        path,
        [&](int fd) -> Result<bool> {
            if (!write_all(fd, text)) return Error{std::strerror(errno)};
            return true;
        },
        mode);
}

std::string lock_holder_text(int fd) {
    struct stat info {};
    if (::fstat(fd, &info) != 0) return "another process holds its lock";
    // "1: FLOCK  ADVISORY  WRITE 4242 08:01:1234567 0 EOF": the device in hex.
    char device[64];
    std::snprintf(device, sizeof device, "%02x:%02x:%llu", ::major(info.st_dev), ::minor(info.st_dev),
                  static_cast<unsigned long long>(info.st_ino));
    std::ifstream locks("/proc/locks");
    for (std::string line; std::getline(locks, line);) {
        std::istringstream fields(line);
        std::string number, kind, mode, access, pid, where;
        if (!(fields >> number >> kind >> mode >> access >> pid >> where) || where != device) continue;
        if (number == "->" || pid.find_first_not_of("0123456789") != std::string::npos) continue;
        struct stat owner {};
        const std::string proc = "/proc/" + pid;
        const std::string uid = ::stat(proc.c_str(), &owner) == 0 ? " (UID " + std::to_string(owner.st_uid) + ")" : "";
        return "PID " + pid + uid + " holds its lock";
    }
    return "another process holds its lock";
}

}  // namespace musatop
