// Adds what /proc knows to the GMI process rows: user, full command line, RSS,
// creation and running time, CPU% between samples, and a status.
#pragma once

#include <cstdlib>

#include "musatop/collection/procfs/cgroup_parse.hpp"
#include "musatop/collection/procfs/user_names.hpp"

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "musatop/model/snapshot.hpp"

namespace musatop::procfs {

class ProcessEnricher {
public:
    explicit ProcessEnricher(std::string proc_root = "/proc");

    // Rows that share a PID share one lookup. CPU% is published only for a process
    // instance (PID, start time) already seen by the previous call.
    void enrich(std::vector<GpuProcess>& rows, WallTime wall_now, std::chrono::steady_clock::time_point mono_now);
    // Called just before GMI is asked for its processes: a PID whose process
    // started after this is not the one GMI listed (the PID was reused during the
    // call) and is `exited`, never shown as the GPU's process nor signalled.
    void mark_listing_start();
    // Leave other users' names and command lines out (GMI's process name stays):
    // for the agent and recordings on a host whose /proc hides them (hidepid).
    void hide_other_users(bool hide) { hide_others_ = hide; }

    // Set when musatop runs in a PID namespace of its own (a container without
    // --pid=host): GMI reports host PIDs, which name unrelated processes here, so
    // every row stays `unverified` (never enriched, never signalled) and this says why.
    const std::optional<std::string>& unverified_reason() const { return unverified_reason_; }

private:
    bool hide_others_ = false;
    std::optional<double> listed_at_uptime_;  // seconds since boot when GMI was asked
    struct Primed {
        std::uint64_t start_ticks = 0;
        std::uint64_t cpu_ticks = 0;
        std::chrono::steady_clock::time_point observed_at;
    };
    struct Lookup {
        ProcessStatus status = ProcessStatus::unverified;
        std::optional<std::uint32_t> uid;
        std::optional<std::string> command;
        std::optional<std::int64_t> rss_bytes;
        std::optional<double> create_time;
        std::optional<std::uint64_t> start_ticks;
        std::optional<double> running_seconds;
        std::optional<double> cpu_percent;
        Attribution attribution;
    };

    Lookup look_up(std::int64_t pid, double wall_seconds, std::chrono::steady_clock::time_point mono_now,
                   std::map<std::int64_t, Primed>& next_cache);
    std::optional<std::int64_t> boot_time();

    bool cgroup_trusted(std::string_view controllers, std::string_view prefix) const;

    std::string root_;
    std::vector<CgroupMount> cgroup_mounts_;  // where each cgroup file system is, to see who made a folder
    UserNames user_names_{std::getenv("PATH") ? std::getenv("PATH") : ""};
    std::optional<std::string> unverified_reason_;
    std::map<std::int64_t, Primed> cache_;
    std::optional<std::int64_t> boot_time_;
    long ticks_per_second_;
    long page_size_;
};

// passwd name of the UID, else the decimal UID.
std::string username_for_uid(std::uint32_t uid);

}  // namespace musatop::procfs
