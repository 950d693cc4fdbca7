// The /proc files: stat, status, statm, cmdline, cgroup, /proc/stat and meminfo.
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include "musatop/collection/procfs/cgroup_parse.hpp"
#include "musatop/collection/procfs/proc_parse.hpp"

namespace {

// Names from cgroup paths reach terminals and labels: never a control character,
// never longer than a directory name.
void check_name(const std::optional<std::string>& name) {
    if (!name) return;
    if (name->size() > 255) std::abort();
    for (char c : *name)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace musatop::procfs;
    const std::string text(reinterpret_cast<const char*>(data), size);
    (void)parse_proc_stat(text);
    (void)parse_status_real_uid(text);
    (void)parse_statm_resident_pages(text);
    (void)join_cmdline(text);
    const auto a = parse_cpu_times(text);
    if (a) (void)cpu_percent_between(*a, *a);
    (void)parse_boot_time(text);
    (void)parse_meminfo(text);
    const auto owner = parse_cgroup_attribution(text);
    for (const auto* name : {&owner.container_id, &owner.container_runtime, &owner.pod_uid, &owner.slurm_step,
                             &owner.systemd_unit, &owner.pod_qos_class})
        check_name(*name);
    return 0;
}
