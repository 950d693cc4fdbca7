// Who a GPU process belongs to beyond its user: the container, Kubernetes pod,
// Slurm job and systemd unit its cgroup names. Read from /proc/PID/cgroup; every
// field is unknown (nullopt) when the path does not say.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace musatop {

struct Attribution {
    // "docker", "containerd", "cri-o", "podman" or "lxc"; unknown for a Kubernetes
    // container under the cgroupfs driver, whose path names no runtime.
    std::optional<std::string> container_runtime;
    std::optional<std::string> container_id;  // full id (LXC: the container's name)
    std::optional<std::string> pod_uid;
    std::optional<std::string> pod_qos_class;  // "guaranteed", "burstable", "besteffort"
    std::optional<std::int64_t> slurm_job_id;
    std::optional<std::string> slurm_step;    // "0", "batch", "extern", "interactive", ...
    std::optional<std::string> systemd_unit;  // innermost .service or .scope

    bool operator==(const Attribution&) const = default;
};

// What the JOB column shows: the Slurm job ("1234", "1234.0" with a step), else
// the container id cut to 12 characters (a Docker short id), else the unit; unknown
// when none is known.
std::optional<std::string> job_label(const Attribution& attribution);

// True when `filter` equals the Slurm job id (`--job`).
bool job_matches(const Attribution& attribution, std::int64_t job_id);

// True when the container id starts with `prefix` (`--container`; never for an
// empty prefix).
bool container_matches(const Attribution& attribution, const std::string& prefix);

}  // namespace musatop
