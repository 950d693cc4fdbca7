#include "musatop/model/process_identity.hpp"

namespace musatop {

ProcessIdentity identity_of(const GpuProcess& p) {
    return ProcessIdentity{p.device_index, p.device_uuid, p.pid, p.start_ticks};
}

bool target_is_current(const GpuProcess& target, const Snapshot* unfiltered, Provenance provenance) {
    if (!unfiltered || unfiltered->processes_stale || unfiltered->is_demo() || provenance != Provenance::live)
        return false;
    if (!target.start_ticks || target.status != ProcessStatus::ok) return false;
    for (const auto& row : unfiltered->processes)
        if (identity_of(row) == identity_of(target) && row.status == ProcessStatus::ok) return true;
    return false;
}

}  // namespace musatop
