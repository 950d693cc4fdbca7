#include "musatop/model/attribution.hpp"

namespace musatop {

std::optional<std::string> job_label(const Attribution& a) {
    if (a.slurm_job_id) return std::to_string(*a.slurm_job_id) + (a.slurm_step ? "." + *a.slurm_step : "");
    if (a.container_id) return a.container_id->substr(0, 12);
    return a.systemd_unit;
}

bool job_matches(const Attribution& a, std::int64_t job_id) { return a.slurm_job_id == job_id; }

bool container_matches(const Attribution& a, const std::string& prefix) {
    return !prefix.empty() && a.container_id && a.container_id->compare(0, prefix.size(), prefix) == 0;
}

}  // namespace musatop
