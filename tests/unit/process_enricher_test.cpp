#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include "musatop/collection/procfs/host_sampler.hpp"
#include "musatop/collection/procfs/process_enricher.hpp"
#include "test_support.hpp"

using namespace std::string_literals;

using namespace musatop;
using namespace musatop::procfs;
using musatop::testing::TempDir;
using musatop::testing::write_text;

namespace {

// A /proc look-alike: one process with chosen start ticks and CPU ticks.
class FakeProc {
public:
    FakeProc() { write_text(dir / "stat", "cpu  1 0 1 10 0 0 0 0 0 0\nbtime 1700000000\n"); }
    void set(int pid, std::uint64_t start_ticks, std::uint64_t cpu_ticks,
             const std::string& cmdline = "worker\0--test\0"s, char state = 'S', int tgid = 0) {
        const auto p = dir / std::to_string(pid);
        write_text(p / "stat", std::to_string(pid) + " (worker) " + state + " 1 1 1 0 -1 0 0 0 0 0 " +
                                   std::to_string(cpu_ticks) + " 0 0 0 20 0 1 0 " + std::to_string(start_ticks) +
                                   " 1000 50\n");
        write_text(p / "status", "Name:\tworker\nTgid:\t" + std::to_string(tgid ? tgid : pid) + "\nUid:\t0\t0\t0\t0\n");
        write_text(p / "cmdline", cmdline);
        write_text(p / "statm", "1000 300 10 1 0 100 0\n");
    }
    void remove(int pid) { std::filesystem::remove_all(dir / std::to_string(pid)); }
    TempDir dir;
};

GpuProcess gmi_row(std::int64_t gpu, std::int64_t pid) {
    GpuProcess p;
    p.device_index = gpu;
    p.pid = pid;
    p.command = "/usr/bin/worker";
    return p;
}

using std::chrono::seconds;
const WallTime wall0 = WallTime(seconds(1700000125));
const auto mono0 = std::chrono::steady_clock::time_point(seconds(1000));

}  // namespace

TEST(ProcessEnricher, SamePidOnTwoGpusSharesOneLookup) {
    FakeProc proc;
    proc.set(42, 10000, 50);  // start = btime + 100 s
    ProcessEnricher enricher(proc.dir.path().string());
    std::vector<GpuProcess> rows = {gmi_row(0, 42), gmi_row(1, 42)};
    enricher.enrich(rows, wall0, mono0);
    for (const auto& row : rows) {
        EXPECT_EQ(row.status, ProcessStatus::ok);
        EXPECT_EQ(row.username, "root");
        EXPECT_EQ(row.command, "worker --test");  // the host command line replaces GMI's name
        EXPECT_EQ(row.create_time, 1700000100.0);
        EXPECT_EQ(row.running_seconds, 25.0);
        EXPECT_EQ(row.rss_bytes, 300 * ::sysconf(_SC_PAGESIZE));
        EXPECT_FALSE(row.cpu_percent);  // first observation
    }
}

TEST(ProcessEnricher, CpuPercentFromTheSecondObservation) {
    FakeProc proc;
    proc.set(42, 10000, 50);
    ProcessEnricher enricher(proc.dir.path().string());
    std::vector<GpuProcess> rows = {gmi_row(0, 42)};
    enricher.enrich(rows, wall0, mono0);
    proc.set(42, 10000, 150);  // 100 ticks = 1 s of CPU in 2 s
    rows = {gmi_row(0, 42)};
    enricher.enrich(rows, wall0 + seconds(2), mono0 + seconds(2));
    EXPECT_EQ(rows[0].cpu_percent, 50.0);
}

TEST(ProcessEnricher, PidReuseRestartsPriming) {
    FakeProc proc;
    proc.set(42, 10000, 50);
    ProcessEnricher enricher(proc.dir.path().string());
    std::vector<GpuProcess> rows = {gmi_row(0, 42)};
    enricher.enrich(rows, wall0, mono0);
    proc.set(42, 20000, 60, "other\0"s);
    rows = {gmi_row(0, 42)};
    enricher.enrich(rows, wall0 + seconds(200), mono0 + seconds(200));
    EXPECT_EQ(rows[0].command, "other");
    EXPECT_EQ(rows[0].create_time, 1700000200.0);
    EXPECT_FALSE(rows[0].cpu_percent);
}

TEST(ProcessEnricher, VanishedAndReturningPid) {
    FakeProc proc;
    proc.set(42, 10000, 50);
    ProcessEnricher enricher(proc.dir.path().string());
    std::vector<GpuProcess> rows = {gmi_row(0, 42)};
    enricher.enrich(rows, wall0, mono0);
    proc.remove(42);
    rows = {gmi_row(0, 42)};
    enricher.enrich(rows, wall0, mono0 + seconds(1));
    EXPECT_EQ(rows[0].status, ProcessStatus::exited);
    EXPECT_FALSE(rows[0].create_time);
    EXPECT_EQ(rows[0].command, "/usr/bin/worker");  // GMI's name stays
    proc.set(42, 10000, 80);
    rows = {gmi_row(0, 42)};
    enricher.enrich(rows, wall0, mono0 + seconds(2));
    EXPECT_EQ(rows[0].status, ProcessStatus::ok);
    EXPECT_FALSE(rows[0].cpu_percent);  // forgotten while gone
}

TEST(ProcessEnricher, ProcEntriesVanishingMidReadMeanExited) {
    for (const char* vanished : {"status", "cmdline", "statm"}) {
        FakeProc proc;
        proc.set(42, 10000, 50);
        std::filesystem::remove(proc.dir / "42" / vanished);
        ProcessEnricher enricher(proc.dir.path().string());
        std::vector<GpuProcess> rows = {gmi_row(0, 42)};
        enricher.enrich(rows, wall0, mono0);
        EXPECT_EQ(rows[0].status, ProcessStatus::exited) << vanished;
        EXPECT_EQ(rows[0].create_time, 1700000100.0) << vanished;  // read before it vanished
        EXPECT_FALSE(rows[0].cpu_percent) << vanished;
    }
}

TEST(ProcessEnricher, ZombieIsExitedAndEmptyCmdlineUsesTheName) {
    FakeProc proc;
    proc.set(42, 10000, 50, "", 'Z');
    proc.set(43, 10000, 50, "");
    ProcessEnricher enricher(proc.dir.path().string());
    std::vector<GpuProcess> rows = {gmi_row(0, 42), gmi_row(0, 43)};
    enricher.enrich(rows, wall0, mono0);
    EXPECT_EQ(rows[0].status, ProcessStatus::exited);
    EXPECT_EQ(rows[1].status, ProcessStatus::ok);
    EXPECT_EQ(rows[1].command, "worker");
}

TEST(ProcessEnricher, DeniedCmdlineKeepsWhatWasRead) {
    if (::geteuid() == 0) GTEST_SKIP() << "root reads files whatever their mode";
    FakeProc proc;
    proc.set(42, 10000, 50);
    ::chmod((proc.dir / "42/cmdline").c_str(), 0);
    ProcessEnricher enricher(proc.dir.path().string());
    std::vector<GpuProcess> rows = {gmi_row(0, 42)};
    enricher.enrich(rows, wall0, mono0);
    EXPECT_EQ(rows[0].status, ProcessStatus::access_denied);
    EXPECT_EQ(rows[0].username, "root");
    EXPECT_EQ(rows[0].command, "/usr/bin/worker");
    EXPECT_FALSE(rows[0].rss_bytes);
    EXPECT_FALSE(rows[0].cpu_percent);
}

TEST(ProcessEnricher, RealChildProcess) {
    musatop::testing::SleepChild child("30");
    ProcessEnricher enricher;
    std::vector<GpuProcess> rows = {gmi_row(0, child.pid())};
    enricher.enrich(rows, std::chrono::system_clock::now(), std::chrono::steady_clock::now());
    EXPECT_EQ(rows[0].status, ProcessStatus::ok);
    EXPECT_EQ(rows[0].command, "sleep 30");
    EXPECT_EQ(rows[0].username, username_for_uid(::getuid()));
    EXPECT_TRUE(rows[0].rss_bytes && *rows[0].rss_bytes > 0);
    ASSERT_TRUE(rows[0].create_time);
    EXPECT_GE(*rows[0].running_seconds, 0.0);
    const pid_t pid = child.pid();
    child.stop(SIGKILL);
    rows = {gmi_row(0, pid)};
    enricher.enrich(rows, std::chrono::system_clock::now(), std::chrono::steady_clock::now());
    EXPECT_EQ(rows[0].status, ProcessStatus::exited);
}

TEST(HostSampler, CpuUnknownFirstThenKnown) {
    HostSampler host;
    auto first = host.sample();
    ASSERT_TRUE(first.ok());
    EXPECT_FALSE(first->cpu_percent);
    EXPECT_TRUE(first->hostname);
    EXPECT_GT(*first->memory_total_bytes, 0);
    auto second = host.sample();
    ASSERT_TRUE(second.ok());
    EXPECT_TRUE(second->cpu_percent);
}

TEST(HostSampler, UnreadableProcIsAnError) {
    HostSampler host("/nonexistent-proc");
    const auto result = host.sample();
    ASSERT_FALSE(result.ok());
    EXPECT_NE(result.error().find("/nonexistent-proc/stat"), std::string::npos);
}

TEST(ProcessEnricher, AThreadIdIsNeverAVerifiedProcess) {
    FakeProc proc;
    proc.set(42, 10000, 50);
    proc.set(43, 10000, 50, "worker\0--test\0"s, 'S', 42);  // a thread of 42, as GMI may name it
    ProcessEnricher enricher(proc.dir.path().string());
    std::vector<GpuProcess> rows = {gmi_row(0, 42), gmi_row(0, 43)};
    enricher.enrich(rows, wall0, mono0);
    EXPECT_EQ(rows[0].status, ProcessStatus::ok);
    EXPECT_EQ(rows[1].status, ProcessStatus::unverified);
    EXPECT_FALSE(rows[1].username);
}

TEST(ProcessEnricher, InAPidNamespaceOfItsOwnEveryRowStaysUnverified) {
    FakeProc proc;
    proc.set(42, 10000, 50);  // some local process that happens to have GMI's host PID
    write_text(proc.dir / "self/status", "Name:\tmusatop\nNSpid:\t31337\t7\n");
    ProcessEnricher enricher(proc.dir.path().string());
    ASSERT_TRUE(enricher.unverified_reason());
    EXPECT_NE(enricher.unverified_reason()->find("--pid=host"), std::string::npos);
    std::vector<GpuProcess> rows = {gmi_row(0, 42)};
    enricher.enrich(rows, wall0, mono0);
    EXPECT_EQ(rows[0].status, ProcessStatus::unverified);
    EXPECT_FALSE(rows[0].username);
    EXPECT_FALSE(rows[0].start_ticks);  // so it can never be signalled
}

TEST(ProcessEnricher, TheInitialPidNamespaceIsNotFlagged) {
    FakeProc proc;
    write_text(proc.dir / "self/status", "Name:\tmusatop\nNSpid:\t31337\n");
    EXPECT_FALSE(ProcessEnricher(proc.dir.path().string()).unverified_reason());
}

// Under hidepid the agent and recordings leave out what /proc hides: another
// user's name and command line (GMI's process name stays), never the user's own.
TEST(ProcessEnricher, OtherUsersCanBeLeftOut) {
    FakeProc proc;
    proc.set(42, 10000, 50, "worker\0--token=SECRET-TOKEN-123\0"s);
    proc.set(43, 10000, 50, "mine\0"s);
    const std::string other = std::to_string(::getuid() + 1), self = std::to_string(::getuid());
    write_text(proc.dir / "42/status", "Name:\tworker\nTgid:\t42\nUid:\t" + other + "\t" + other + "\t0\t0\n");
    write_text(proc.dir / "43/status", "Name:\tworker\nTgid:\t43\nUid:\t" + self + "\t" + self + "\t0\t0\n");
    ProcessEnricher enricher(proc.dir.path().string());
    enricher.hide_other_users(true);
    std::vector<GpuProcess> rows = {gmi_row(0, 42), gmi_row(0, 43)};
    enricher.enrich(rows, wall0, mono0);
    EXPECT_FALSE(rows[0].username);
    EXPECT_EQ(rows[0].command, "/usr/bin/worker");  // GMI's name, not the command line
    EXPECT_EQ(rows[1].command, "mine");
    EXPECT_TRUE(rows[1].username);
}

// A PID reused while GMI was being asked names another process: the row is the
// one GMI listed, which has exited, and nothing of the newcomer is shown.
TEST(ProcessEnricher, APidReusedDuringTheListingIsNotTheListedProcess) {
    FakeProc proc;
    write_text(proc.dir / "uptime", "500.00 900.00\n");  // GMI asked at 500 s after boot
    proc.set(42, 49990, 50);                             // began at 499.9 s: the one listed
    proc.set(43, 50100, 50);                             // began at 501 s: a newcomer on a reused PID
    ProcessEnricher enricher(proc.dir.path().string());
    enricher.mark_listing_start();
    std::vector<GpuProcess> rows = {gmi_row(0, 42), gmi_row(0, 43)};
    enricher.enrich(rows, wall0, mono0);
    EXPECT_EQ(rows[0].status, ProcessStatus::ok);
    EXPECT_EQ(rows[1].status, ProcessStatus::exited);
    EXPECT_FALSE(rows[1].username);
    EXPECT_FALSE(rows[1].start_ticks);  // nothing to aim a signal at
}
