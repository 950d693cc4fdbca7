// The /proc files: stat, status, statm, cmdline, /proc/stat and meminfo.
#include <cstdint>
#include <string>

#include "musatop/collection/procfs/proc_parse.hpp"

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
    return 0;
}
