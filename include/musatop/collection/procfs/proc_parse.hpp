// Pure parsers for the /proc files musatop reads. They take file contents and never
// touch the file system, so they can be unit-tested and fuzzed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace musatop::procfs {

struct ProcStat {
    std::string comm;
    char state = '?';
    std::uint64_t utime_ticks = 0;
    std::uint64_t stime_ticks = 0;
    std::uint64_t start_ticks = 0;  // since boot
};

// /proc/<pid>/stat; the command name may itself contain spaces and parentheses.
std::optional<ProcStat> parse_proc_stat(std::string_view text);

// Thread-group id from the "Tgid:" line of /proc/<pid>/status: the process a
// thread ID belongs to (equal to the PID for the process itself).
std::optional<std::int64_t> parse_status_tgid(std::string_view text);

// How many PID namespaces the "NSpid:" line of /proc/<pid>/status lists (1 in the
// initial namespace, more inside a container's own; 0 when the kernel has no NSpid).
std::size_t parse_status_nspid_depth(std::string_view text);

// Real UID from the "Uid:" line of /proc/<pid>/status.
std::optional<std::uint32_t> parse_status_real_uid(std::string_view text);

// Resident pages: the second field of /proc/<pid>/statm.
std::optional<std::uint64_t> parse_statm_resident_pages(std::string_view text);

// True when /proc (its line in /proc/self/mountinfo) hides other users' processes
// from them: hidepid=1/2 or noaccess/invisible.
bool mountinfo_hides_processes(std::string_view mountinfo);

// What a snapshot carries of a command line: more than any screen shows and
// enough to tell jobs apart, and a bound on a frame that no other user's process
// can move (three 1.1 MB command lines made a recording 18 MB a frame).
inline constexpr std::size_t kMaxCommandBytes = 4096;

// NUL-separated arguments joined by single spaces (trailing NULs ignored), cut to
// `max_bytes` on a character boundary with "…" saying so.
std::string join_cmdline(std::string_view raw, std::size_t max_bytes = kMaxCommandBytes);

struct CpuTimes {
    std::uint64_t busy_ticks = 0;
    std::uint64_t total_ticks = 0;
};

// The aggregate "cpu" line of /proc/stat: total excludes guest time (already counted
// in user), busy excludes idle and iowait.
std::optional<CpuTimes> parse_cpu_times(std::string_view proc_stat);

// "btime" of /proc/stat (boot time, Unix seconds).
std::optional<std::int64_t> parse_boot_time(std::string_view proc_stat);

struct MemoryInfo {
    std::int64_t total_bytes = 0;
    std::int64_t used_bytes = 0;
};

// used = MemTotal - MemAvailable (what `free` calls used since procps-ng 4); kernels
// without MemAvailable fall back to MemTotal - MemFree - Buffers - Cached - SReclaimable.
std::optional<MemoryInfo> parse_meminfo(std::string_view text);

// Unix start time of a process as psutil computes it: boot time + start ticks,
// rounded to 1/100 s, so two readings of one instance compare equal.
double create_time_seconds(std::int64_t boot_time, std::uint64_t start_ticks, long ticks_per_second);

// Percent busy between two readings, one decimal; 0 when nothing elapsed.
double cpu_percent_between(const CpuTimes& before, const CpuTimes& after);

}  // namespace musatop::procfs
