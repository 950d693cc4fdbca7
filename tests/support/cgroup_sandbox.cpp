#include "cgroup_sandbox.hpp"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <system_error>

namespace musatop::testing {
namespace {

struct Mount {
    std::filesystem::path dir;
    bool unified = false;
};

// cgroup2 mounts first, then v1 hierarchies, from /proc/self/mountinfo: the
// fields after " - " are the file system type and source.
std::vector<Mount> cgroup_mounts() {
    std::vector<Mount> v2, v1;
    std::ifstream info("/proc/self/mountinfo");
    for (std::string line; std::getline(info, line);) {
        std::istringstream fields(line);
        std::string id, parent, device, root, point;
        fields >> id >> parent >> device >> root >> point;
        const auto dash = line.find(" - ");
        if (dash == std::string::npos || root != "/") continue;
        std::istringstream tail(line.substr(dash + 3));
        std::string type;
        tail >> type;
        if (type == "cgroup2") v2.push_back({point, true});
        if (type == "cgroup") v1.push_back({point, false});
    }
    v2.insert(v2.end(), v1.begin(), v1.end());
    return v2;
}

}  // namespace

CgroupSandbox::CgroupSandbox() {
    if (::geteuid() != 0) {
        why_not_ = "creating cgroups needs root";
        return;
    }
    const std::string name = "musatop-test-" + std::to_string(::getpid());
    for (const auto& mount : cgroup_mounts()) {
        std::error_code error;
        const auto dir = mount.dir / name;
        if (!std::filesystem::create_directory(dir, error) || error) {
            why_not_ = "cannot create a cgroup under " + mount.dir.string() + ": " + error.message();
            continue;
        }
        root_ = dir;
        made_.push_back(dir);
        unified_ = mount.unified;
        return;
    }
    if (why_not_.empty()) why_not_ = "no cgroup file system is mounted";
}

CgroupSandbox::~CgroupSandbox() {
    // Deepest first: a cgroup can only go once its children and processes did.
    std::sort(made_.begin(), made_.end(),
              [](const auto& a, const auto& b) { return a.string().size() > b.string().size(); });
    for (const auto& dir : made_) ::rmdir(dir.c_str());
}

bool CgroupSandbox::move(pid_t pid, const std::string& relative) {
    auto dir = root_;
    for (const auto& part : std::filesystem::path(relative)) {
        dir /= part;
        std::error_code error;
        if (std::filesystem::create_directory(dir, error)) made_.push_back(dir);
        if (error) {
            why_not_ = "cannot create " + dir.string() + ": " + error.message();
            return false;
        }
    }
    std::ofstream procs(dir / "cgroup.procs");
    procs << pid << std::flush;
    if (!procs) {
        why_not_ = "the kernel refused to move a process into " + dir.string();
        return false;
    }
    return true;
}

}  // namespace musatop::testing
