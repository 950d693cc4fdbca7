#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include "musatop/actions/process_actions.hpp"
#include "musatop/collection/procfs/live_process.hpp"
#include "musatop/model/process_identity.hpp"
#include "snapshot_builder.hpp"
#include "test_support.hpp"

using namespace musatop;
using namespace musatop::actions;
using musatop::procfs::live_start_ticks;
using musatop::testing::SleepChild;

namespace {

GpuProcess row(std::int64_t pid, std::optional<std::uint64_t> start_ticks, ProcessStatus status = ProcessStatus::ok) {
    GpuProcess p;
    p.device_index = 0;
    p.device_uuid = "u0";
    p.pid = pid;
    p.start_ticks = start_ticks;
    p.status = status;
    return p;
}

Snapshot with_rows(std::vector<GpuProcess> rows) {
    return musatop::testing::SnapshotBuilder().rows(std::move(rows)).build();
}

}  // namespace

TEST(TargetIsCurrent, NeedsFreshDataAndTheSameInstance) {
    const GpuProcess target = row(42, 10050);
    Snapshot s = with_rows({target});
    EXPECT_TRUE(target_is_current(target, &s));
    EXPECT_FALSE(target_is_current(target, nullptr));
    s.processes_stale = true;
    EXPECT_FALSE(target_is_current(target, &s));
    EXPECT_FALSE(target_is_current(target, &(s = with_rows({}))));                // gone
    EXPECT_FALSE(target_is_current(target, &(s = with_rows({row(42, 20050)}))));  // PID reused
    EXPECT_FALSE(target_is_current(target, &(s = with_rows({row(42, 10050, ProcessStatus::access_denied)}))));
    GpuProcess other_gpu = target;
    other_gpu.device_uuid = "u1";
    EXPECT_FALSE(target_is_current(target, &(s = with_rows({other_gpu}))));  // GPU identity changed
    EXPECT_FALSE(target_is_current(row(42, std::nullopt), &(s = with_rows({row(42, std::nullopt)}))));
    s = with_rows({target});
    s.device_source = DeviceSource::demo;
    EXPECT_FALSE(target_is_current(target, &s));
    s = with_rows({target});  // the same rows read back from a recording or fetched from a node: never signalled
    EXPECT_FALSE(target_is_current(target, &s, Provenance::replayed));
    EXPECT_FALSE(target_is_current(target, &s, Provenance::remote));
}

TEST(Terminate, ProtectedAndUnverifiedTargetsAreRefusedWithoutSignalling) {
    for (std::int64_t pid : {std::int64_t{-1}, std::int64_t{0}, std::int64_t{1}, std::int64_t{::getpid()}})
        EXPECT_EQ(terminate_process(row(pid, 1)), "Refused: protected PID.") << pid;
    SleepChild child;
    EXPECT_EQ(terminate_process(row(child.pid(), std::nullopt)), "Refused: process identity is not verified.");
    EXPECT_EQ(terminate_process(row(child.pid(), live_start_ticks(child.pid()), ProcessStatus::access_denied)),
              "Refused: process identity is not verified.");
    EXPECT_EQ(::kill(child.pid(), 0), 0);
}

TEST(Terminate, ReusedPidIsRefused) {
    SleepChild child;
    const auto created = live_start_ticks(child.pid());
    ASSERT_TRUE(created);
    EXPECT_EQ(terminate_process(row(child.pid(), *created + 1)), "Refused: PID was reused or the process exited.");
    EXPECT_EQ(::kill(child.pid(), 0), 0);
}

TEST(Terminate, VerifiedProcessGetsSigterm) {
    SleepChild child;
    const auto created = live_start_ticks(child.pid());
    ASSERT_TRUE(created);
    EXPECT_EQ(terminate_process(row(child.pid(), created)), "SIGTERM sent to PID " + std::to_string(child.pid()) + ".");
    const int status = child.reap();
    ASSERT_TRUE(WIFSIGNALED(status));
    EXPECT_EQ(WTERMSIG(status), SIGTERM);
}

TEST(Terminate, ExitedProcess) {
    SleepChild child;
    const auto created = live_start_ticks(child.pid());
    const auto pid = child.pid();
    child.stop(SIGKILL);
    EXPECT_EQ(terminate_process(row(pid, created)), "Process has already exited.");
}

TEST(Terminate, AnotherUsersProcessGivesAPermissionMessage) {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root to become another user";
    SleepChild child;  // owned by root
    const auto created = live_start_ticks(child.pid());
    int pipe_fds[2];
    ASSERT_EQ(::pipe(pipe_fds), 0);
    const pid_t helper = ::fork();
    if (helper == 0) {
        // As nobody, try to terminate root's process; report the message.
        if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(3);
        const std::string message = terminate_process(row(child.pid(), created));
        [[maybe_unused]] const ssize_t n = ::write(pipe_fds[1], message.data(), message.size());
        ::_exit(0);
    }
    ::close(pipe_fds[1]);
    char buffer[256] = {};
    const ssize_t n = ::read(pipe_fds[0], buffer, sizeof buffer - 1);
    ::close(pipe_fds[0]);
    int status = 0;
    ::waitpid(helper, &status, 0);
    ASSERT_GT(n, 0);
    EXPECT_EQ(std::string(buffer), "Permission denied: cannot terminate this process.");
    EXPECT_EQ(::kill(child.pid(), 0), 0);
}

TEST(Terminate, AThreadIdIsRefusedNeverKilled) {
    // A thread of this very process: a SIGTERM through kill() would end the test.
    std::atomic<pid_t> tid{0};
    std::atomic<bool> done{false};
    std::thread worker([&] {
        tid = ::gettid();
        while (!done) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    });
    ASSERT_TRUE(musatop::testing::wait_for([&] { return tid.load() != 0; }));
    const auto previous = ::signal(SIGTERM, SIG_IGN);  // a wrong signal must not end the run
    const auto ticks = live_start_ticks(tid);
    ASSERT_TRUE(ticks);
    EXPECT_EQ(terminate_process(row(tid, ticks)), "Refused: PID is a thread, not a process.");
    ::signal(SIGTERM, previous);
    done = true;
    worker.join();
}
