// Attribution from the text of /proc/PID/cgroup (cgroup v1, v2 and hybrid). Pure:
// takes the file's contents, never touches the file system.
#pragma once

#include <string_view>

#include "musatop/model/attribution.hpp"

namespace musatop::procfs {

// Recognises Docker, containerd (CRI), CRI-O, Podman and LXC containers, Kubernetes
// pods (systemd and cgroupfs drivers), Slurm jobs and steps, and otherwise the
// innermost systemd unit. Nested containers give the innermost one. Names are
// cut to 255 bytes with control characters replaced, since anyone who may create
// a cgroup directory chooses its name.
Attribution parse_cgroup_attribution(std::string_view text);

}  // namespace musatop::procfs
