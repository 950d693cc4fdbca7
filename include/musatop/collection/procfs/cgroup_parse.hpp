// Attribution from the text of /proc/PID/cgroup (cgroup v1, v2 and hybrid). Pure:
// takes the file's contents, never touches the file system.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "musatop/model/attribution.hpp"

namespace musatop::procfs {

// Recognises Docker, containerd (CRI), CRI-O, Podman and LXC containers, Kubernetes
// pods (systemd and cgroupfs drivers), Slurm jobs and steps, and otherwise the
// innermost systemd unit. Nested containers give the innermost one. Names are
// cut to 255 bytes with control characters replaced, since anyone who may create
// a cgroup directory chooses its name.
Attribution parse_cgroup_attribution(std::string_view text);

// The cgroup file systems in /proc/self/mountinfo's text: for each, "" (cgroup2)
// or the v1 hierarchy's options ("cpu,cpuacct", "name=systemd"), and where it is.
struct CgroupMount {
    std::string options;
    std::string directory;
};
std::vector<CgroupMount> parse_cgroup_mounts(std::string_view mountinfo);

// Anyone with a delegated cgroup subtree (a Slurm job, a user's systemd) may make
// folders named like another job's, pod's or container's: /proc/PID/cgroup's text
// with each path cut before its first component, from the top, that `trusted`
// (controllers, the path up to and with that component) does not accept, the
// folders root made being the ones to believe.
std::string trusted_cgroup_text(std::string_view text,
                                const std::function<bool(std::string_view, std::string_view)>& trusted);

}  // namespace musatop::procfs
