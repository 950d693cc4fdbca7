#include "musatop/collection/procfs/process_enricher.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>

#include "musatop/collection/procfs/cgroup_parse.hpp"
#include "musatop/collection/procfs/live_process.hpp"
#include "musatop/collection/procfs/proc_parse.hpp"
#include "musatop/collection/procfs/proc_reader.hpp"
#include "musatop/util/text.hpp"
#include "musatop/util/utf8.hpp"

namespace musatop::procfs {
namespace {

bool is_gone(int error) { return error == ENOENT || error == ESRCH; }

ProcessStatus status_for(int error) { return is_gone(error) ? ProcessStatus::exited : ProcessStatus::access_denied; }

}  // namespace

std::string username_for_uid(std::uint32_t uid) {
    UserNames names(std::getenv("PATH") ? std::getenv("PATH") : "");
    names.resolve({uid});
    return names.name(uid);
}

// A folder of the cgroup tree root made (a runtime, kubelet, slurmstepd, systemd)
// names its job; one a delegated user made may lie. Where the tree is not mounted
// here, nothing can be checked and the names are taken as they are.
bool ProcessEnricher::cgroup_trusted(std::string_view controllers, std::string_view prefix) const {
    for (const auto& mount : cgroup_mounts_) {
        bool matches = controllers.empty() == mount.options.empty();
        for (auto controller : text::split(controllers, ','))
            matches =
                matches && ("," + mount.options + ",").find("," + std::string(controller) + ",") != std::string::npos;
        if (!matches) continue;
        struct stat st {};
        return ::stat((mount.directory + std::string(prefix)).c_str(), &st) == 0 && st.st_uid == 0;
    }
    return true;
}

ProcessEnricher::ProcessEnricher(std::string proc_root)
    : root_(std::move(proc_root)), ticks_per_second_(::sysconf(_SC_CLK_TCK)), page_size_(::sysconf(_SC_PAGESIZE)) {
    if (const auto mountinfo = read_file(root_ + "/self/mountinfo"); mountinfo.ok())
        cgroup_mounts_ = parse_cgroup_mounts(mountinfo.content);
    if (ticks_per_second_ <= 0) ticks_per_second_ = 100;
    const auto self = read_file(root_ + "/self/status");
    if (self.ok() && parse_status_nspid_depth(self.content) > 1)
        unverified_reason_ =
            "musatop runs in its own PID namespace: GMI's host PIDs cannot be mapped to processes here, so "
            "processes are unverified (run the container with --pid=host)";
    if (page_size_ <= 0) page_size_ = 4096;
    // A container with its own /proc (Docker, Kubernetes, `unshare --pid
    // --mount-proc`) shows only its own level in NSpid, so that test passes there;
    // the namespace's inode does not: the host's initial PID namespace always has
    // the same one (PROC_PID_INIT_INO).
    if (!unverified_reason_) {
        char link[64] = {};
        const std::string path = root_ + "/self/ns/pid";
        const ssize_t n = ::readlink(path.c_str(), link, sizeof link - 1);
        constexpr std::string_view kInitialNamespace = "pid:[4026531836]";
        if (n > 0 && std::string_view(link, static_cast<std::size_t>(n)).rfind("pid:[", 0) == 0 &&
            std::string_view(link, static_cast<std::size_t>(n)) != kInitialNamespace)
            unverified_reason_ = "musatop runs in a PID namespace of its own (" + std::string(link) +
                                 ", not the host's): GMI's host PIDs cannot be mapped to processes here, so "
                                 "processes are unverified (run the container with --pid=host)";
    }
}

std::optional<std::int64_t> ProcessEnricher::boot_time() {
    if (!boot_time_) {
        const auto stat = read_file(root_ + "/stat");
        if (stat.ok()) boot_time_ = parse_boot_time(stat.content);
    }
    return boot_time_;
}

void ProcessEnricher::mark_listing_start() {
    listed_at_uptime_.reset();
    const auto uptime = read_file(root_ + "/uptime", 128);
    if (!uptime.ok()) return;
    const std::string text = uptime.content.substr(0, uptime.content.find(' '));
    char* end = nullptr;
    const double seconds = std::strtod(text.c_str(), &end);
    if (end && end != text.c_str() && seconds > 0) listed_at_uptime_ = seconds;
}

ProcessEnricher::Lookup ProcessEnricher::look_up(std::int64_t pid, double wall_seconds,
                                                 std::chrono::steady_clock::time_point mono_now,
                                                 std::map<std::int64_t, Primed>& next_cache) {
    Lookup lookup;
    const std::string dir = root_ + "/" + std::to_string(pid);
    const auto stat_file = read_file(dir + "/stat");
    if (!stat_file.ok()) {
        lookup.status = status_for(stat_file.error);
        return lookup;
    }
    const auto stat = parse_proc_stat(stat_file.content);
    const auto boot = boot_time();
    if (!stat || !boot) return lookup;  // unverified: /proc said something we cannot read
    if (stat->state == 'Z' || stat->state == 'X') {
        lookup.status = ProcessStatus::exited;
        return lookup;
    }
    // Start ticks and /proc/uptime share the boot clock at 1/100 s: a process that
    // began after GMI was asked got the listed PID afterwards (one tick of slack).
    if (listed_at_uptime_ && ticks_per_second_ > 0 &&
        static_cast<double>(stat->start_ticks) / static_cast<double>(ticks_per_second_) >
            *listed_at_uptime_ + 2.0 / static_cast<double>(ticks_per_second_)) {
        lookup.status = ProcessStatus::exited;
        return lookup;
    }
    const double create_time = create_time_seconds(*boot, stat->start_ticks, ticks_per_second_);
    lookup.create_time = create_time;
    lookup.start_ticks = stat->start_ticks;
    lookup.running_seconds = std::max(0.0, wall_seconds - create_time);

    const auto status_file = read_file(dir + "/status");
    if (!status_file.ok()) {
        lookup.status = status_for(status_file.error);
        return lookup;
    }
    // GMI may name a thread rather than its process; /proc/<tid> answers too, but
    // it is not a process musatop can verify or signal as such.
    const auto tgid = parse_status_tgid(status_file.content);
    if (!tgid || *tgid != pid) {
        lookup.status = ProcessStatus::unverified;
        return lookup;
    }
    lookup.uid = parse_status_real_uid(status_file.content);

    const auto cmdline = read_file(dir + "/cmdline", kMaxCommandBytes + 1);
    if (!cmdline.ok()) {
        lookup.status = status_for(cmdline.error);
        return lookup;
    }
    std::string command = join_cmdline(cmdline.content);
    lookup.command = utf8::repair(command.empty() ? stat->comm : command);

    const auto statm = read_file(dir + "/statm");
    if (!statm.ok()) {
        lookup.status = status_for(statm.error);
        return lookup;
    }
    if (const auto pages = parse_statm_resident_pages(statm.content))
        lookup.rss_bytes = static_cast<std::int64_t>(*pages) * page_size_;

    // Readable by anyone; a process the kernel hides this from keeps "unknown".
    if (const auto cgroup = read_file(dir + "/cgroup"); cgroup.ok())
        lookup.attribution = parse_cgroup_attribution(trusted_cgroup_text(
            cgroup.content, [this](std::string_view c, std::string_view p) { return cgroup_trusted(c, p); }));

    // Confirm the PID still names the same instance after the reads above.
    const auto recheck = read_live_stat(pid, root_);
    if (!recheck || recheck->start_ticks != stat->start_ticks) {
        lookup.status = ProcessStatus::exited;
        return lookup;
    }

    const std::uint64_t cpu_ticks = recheck->utime_ticks + recheck->stime_ticks;
    if (const auto previous = cache_.find(pid);
        previous != cache_.end() && previous->second.start_ticks == stat->start_ticks) {
        const double elapsed = std::chrono::duration<double>(mono_now - previous->second.observed_at).count();
        if (elapsed > 0 && cpu_ticks >= previous->second.cpu_ticks) {
            const double cpu_seconds = static_cast<double>(cpu_ticks - previous->second.cpu_ticks) / ticks_per_second_;
            lookup.cpu_percent = std::round(cpu_seconds / elapsed * 1000.0) / 10.0;
        }
    }
    next_cache[pid] = Primed{stat->start_ticks, cpu_ticks, mono_now};
    lookup.status = ProcessStatus::ok;
    return lookup;
}

void ProcessEnricher::enrich(std::vector<GpuProcess>& rows, WallTime wall_now,
                             std::chrono::steady_clock::time_point mono_now) {
    if (unverified_reason_) {
        for (auto& row : rows) row.status = ProcessStatus::unverified;
        cache_.clear();
        return;
    }
    const double wall_seconds = std::chrono::duration<double>(wall_now.time_since_epoch()).count();
    std::map<std::int64_t, Primed> next_cache;
    std::map<std::int64_t, Lookup> lookups;
    std::set<std::uint32_t> uids;
    for (const auto& row : rows) {
        if (lookups.count(row.pid)) continue;
        const auto& lookup =
            lookups.emplace(row.pid, look_up(row.pid, wall_seconds, mono_now, next_cache)).first->second;
        if (lookup.uid) uids.insert(*lookup.uid);
    }
    user_names_.resolve(uids);  // one getent call at most, for the UIDs /etc/passwd lacks
    for (auto& row : rows) {
        const Lookup& lookup = lookups.at(row.pid);
        row.status = lookup.status;
        const bool hidden = hide_others_ && (!lookup.uid || *lookup.uid != ::getuid());
        row.username = lookup.uid && !hidden ? std::optional(user_names_.name(*lookup.uid)) : std::nullopt;
        if (lookup.command && !hidden) row.command = lookup.command;
        row.rss_bytes = lookup.rss_bytes;
        row.create_time = lookup.create_time;
        row.start_ticks = lookup.start_ticks;
        row.running_seconds = lookup.running_seconds;
        row.cpu_percent = lookup.cpu_percent;
        row.attribution = lookup.attribution;
    }
    // Only instances enriched this round stay primed; a PID that returns starts over.
    cache_ = std::move(next_cache);
}

}  // namespace musatop::procfs
