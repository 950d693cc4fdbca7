// Real cgroups for the attribution tests: a private top directory on a writable
// cgroup mount (v2 preferred, else a v1 hierarchy), where tests create paths
// named like each runtime's and move real processes into them. Where the machine
// does not allow it (no writable mount, not root), `available()` is false and
// `why_not()` says why, so the test can skip honestly.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

namespace musatop::testing {

class CgroupSandbox {
public:
    CgroupSandbox();
    CgroupSandbox(const CgroupSandbox&) = delete;
    CgroupSandbox& operator=(const CgroupSandbox&) = delete;
    ~CgroupSandbox();  // removes every directory it made (after the processes left)

    bool available() const { return !root_.empty(); }
    const std::string& why_not() const { return why_not_; }
    bool unified() const { return unified_; }  // cgroup v2 ("0::/...") or a v1 hierarchy

    // Creates `relative` (e.g. "system.slice/docker-<id>.scope") under the
    // sandbox and moves `pid` into it; false with the reason in why_not() if
    // the kernel refuses.
    bool move(pid_t pid, const std::string& relative);
    // The folder of `relative` (made by move) on the cgroup file system.
    std::filesystem::path path(const std::string& relative) const { return root_ / relative; }

private:
    std::filesystem::path root_;
    std::vector<std::filesystem::path> made_;
    bool unified_ = false;
    std::string why_not_;
};

}  // namespace musatop::testing
