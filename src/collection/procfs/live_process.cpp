#include "musatop/collection/procfs/live_process.hpp"

#include "musatop/collection/procfs/proc_reader.hpp"

namespace musatop::procfs {

std::optional<ProcStat> read_live_stat(std::int64_t pid, const std::string& proc_root) {
    const auto file = read_file(proc_root + "/" + std::to_string(pid) + "/stat");
    if (!file.ok()) return std::nullopt;
    auto stat = parse_proc_stat(file.content);
    if (!stat || stat->state == 'Z' || stat->state == 'X') return std::nullopt;
    return stat;
}

std::optional<std::uint64_t> live_start_ticks(std::int64_t pid, const std::string& proc_root) {
    const auto stat = read_live_stat(pid, proc_root);
    if (!stat) return std::nullopt;
    return stat->start_ticks;
}

std::optional<bool> is_process_leader(std::int64_t pid, const std::string& proc_root) {
    const auto file = read_file(proc_root + "/" + std::to_string(pid) + "/status");
    if (!file.ok()) return std::nullopt;
    const auto tgid = parse_status_tgid(file.content);
    if (!tgid) return std::nullopt;
    return *tgid == pid;
}

}  // namespace musatop::procfs
