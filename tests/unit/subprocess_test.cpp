#include <gtest/gtest.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <chrono>

#include "musatop/util/subprocess.hpp"
#include "musatop/util/unique_fd.hpp"
#include "test_support.hpp"

using namespace musatop;
using namespace musatop::subprocess;
using Kind = CommandOutcome::Kind;
using namespace std::chrono_literals;

namespace {

CommandSpec shell(const std::string& script, std::chrono::milliseconds timeout = 5000ms) {
    return CommandSpec{{"/bin/sh", "-c", script}, "sh", timeout};
}

CommandOutcome run_one(const CommandSpec& spec, RunLimits limits = {}) {
    return run_commands({spec}, {"LC_ALL=C"}, limits).at(0);
}

}  // namespace

TEST(CommandRunner, CapturesStdoutStderrAndExitCode) {
    const auto outcome = run_one(shell("echo out; echo err >&2; exit 3"));
    EXPECT_EQ(outcome.kind, Kind::exited);
    EXPECT_EQ(outcome.exit_code, 3);
    EXPECT_EQ(outcome.stdout_text, "out\n");
    EXPECT_EQ(outcome.stderr_text, "err\n");
}

TEST(CommandRunner, EnvironmentAndStdin) {
    const auto outcome = run_one(shell("echo \"$LC_ALL\"; cat; echo end"));
    EXPECT_EQ(outcome.stdout_text, "C\nend\n");  // stdin is /dev/null: cat sees EOF at once
}

TEST(CommandRunner, TimeoutKillsTheWholeGroupAndReaps) {
    musatop::testing::TempDir dir;
    const auto pid_file = dir / "grandchild";
    const auto outcome = run_one(shell("sleep 100 & echo $! > " + pid_file.string() + "; wait", 300ms));
    EXPECT_EQ(outcome.kind, Kind::timed_out);
    const pid_t grandchild = std::stoi(musatop::testing::read_text(pid_file));
    EXPECT_TRUE(musatop::testing::wait_until_dead(grandchild));
}

TEST(CommandRunner, RunsConcurrently) {
    // Each command waits for the other to start: run one after the other, the first
    // would wait for ever and time out.
    musatop::testing::TempDir dir;
    const auto both = [&](const std::string& mine, const std::string& other) {
        return shell("touch " + (dir / mine).string() + "; while [ ! -e " + (dir / other).string() +
                         " ]; do sleep 0.01; done; echo " + mine,
                     5000ms);
    };
    const auto outcomes = run_commands({both("a", "b"), both("b", "a")}, {}, {});
    EXPECT_EQ(outcomes[0].kind, Kind::exited);
    EXPECT_EQ(outcomes[0].stdout_text, "a\n");
    EXPECT_EQ(outcomes[1].stdout_text, "b\n");
}

TEST(CommandRunner, OutputCap) {
    RunLimits limits;
    limits.max_output_bytes = 1000;
    const auto outcome = run_one(shell("head -c 100000 /dev/zero"), limits);
    EXPECT_EQ(outcome.kind, Kind::output_too_large);
}

TEST(CommandRunner, KilledBySignal) {
    const auto outcome = run_one(shell("kill -SEGV $$"));
    EXPECT_EQ(outcome.kind, Kind::signaled);
    EXPECT_EQ(outcome.signal, SIGSEGV);
}

TEST(CommandRunner, StrayThatKeepsThePipeOpenDoesNotHangTheRound) {
    musatop::testing::TempDir dir;
    const auto outcome = run_one(shell("sleep 100 & echo $! > " + (dir / "stray").string() + "; echo done", 20000ms));
    EXPECT_EQ(outcome.kind, Kind::exited);  // not timed_out: the stray was killed, EOF came
    EXPECT_EQ(outcome.stdout_text, "done\n");
    EXPECT_TRUE(musatop::testing::wait_until_dead(std::stoi(musatop::testing::read_text(dir / "stray"))));
}

TEST(CommandRunner, CancelFdStopsEverything) {
    UniqueFd cancel(::eventfd(1, EFD_CLOEXEC));
    RunLimits limits;
    limits.cancel_fd = cancel.get();
    const auto outcome = run_one(shell("sleep 100", 10000ms), limits);
    EXPECT_EQ(outcome.kind, Kind::cancelled);
}

TEST(CommandRunner, StartFailure) {
    const auto outcome = run_one(CommandSpec{{"/nonexistent/gmi"}, "gmi", 1000ms});
    EXPECT_EQ(outcome.kind, Kind::start_failed);
    EXPECT_FALSE(outcome.start_error.empty());
}

TEST(ResolveExecutable, NeverSearchesTheCurrentDirectory) {
    musatop::testing::TempDir dir;
    musatop::testing::write_text(dir / "tool", "#!/bin/sh\n");
    ::chmod((dir / "tool").c_str(), 0755);
    const std::string cwd = std::filesystem::current_path();
    std::filesystem::current_path(dir.path());
    EXPECT_EQ(resolve_executable("tool", ":.:relative").status, ExecutableLookup::Status::not_found);
    std::filesystem::current_path(cwd);
    const auto found = resolve_executable("tool", "/nonexistent:" + dir.path().string());
    EXPECT_EQ(found.status, ExecutableLookup::Status::found);
    EXPECT_EQ(found.path, (dir / "tool").string());
    EXPECT_EQ(resolve_executable((dir / "tool").string(), "").status, ExecutableLookup::Status::found);
}

TEST(ResolveExecutable, NotExecutableIsReported) {
    musatop::testing::TempDir dir;
    musatop::testing::write_text(dir / "tool", "#!/bin/sh\n");
    ::chmod((dir / "tool").c_str(), 0644);
    const auto lookup = resolve_executable("tool", dir.path().string());
    EXPECT_EQ(lookup.status, ExecutableLookup::Status::unusable);  // even root needs an x bit
    EXPECT_EQ(lookup.error, "Permission denied");
}

TEST(Subprocess, AChildThatSurvivesSigkillIsParkedNotWaitedFor) {
    ChildReaper reaper;
    RunLimits limits;
    limits.reaper = &reaper;
    limits.kill_grace = 100ms;
    // Plays a GMI stuck in the driver: SIGKILL does not end it within the grace.
    limits.wait_exited = [](pid_t, std::chrono::milliseconds) { return false; };
    const auto started = std::chrono::steady_clock::now();
    const auto outcome = run_commands({{{"/bin/sleep", "30"}, "sleep", 200ms}}, {}, limits).at(0);
    EXPECT_LT(std::chrono::steady_clock::now() - started, 2s);  // the round is not blocked
    EXPECT_EQ(outcome.kind, CommandOutcome::Kind::timed_out);
    EXPECT_TRUE(outcome.parked);
    EXPECT_EQ(reaper.parked(), 1u);
    // The real sleep did die of the SIGKILL: a later round reaps it without blocking.
    EXPECT_TRUE(musatop::testing::wait_for([&] { return reaper.reap_finished() == 0; }));
}

TEST(Subprocess, CancelParksTooAndNeverWaits) {
    ChildReaper reaper;
    RunLimits limits;
    limits.reaper = &reaper;
    limits.wait_exited = [](pid_t, std::chrono::milliseconds) { return false; };
    musatop::UniqueFd cancel(::eventfd(1, EFD_CLOEXEC));  // already cancelled
    limits.cancel_fd = cancel.get();
    const auto outcome = run_commands({{{"/bin/sleep", "30"}, "sleep", 10s}}, {}, limits).at(0);
    EXPECT_EQ(outcome.kind, CommandOutcome::Kind::cancelled);
    EXPECT_TRUE(outcome.parked);
    EXPECT_TRUE(musatop::testing::wait_for([&] { return reaper.reap_finished() == 0; }));
}

TEST(Subprocess, IgnoredSigchldLosesTheStatusButNeverSpinsOrSignalsStrangers) {
    const auto previous = ::signal(SIGCHLD, SIG_IGN);  // the kernel reaps our children itself
    const auto started = std::chrono::steady_clock::now();
    RunLimits limits;
    const auto outcome = run_commands({{{"/bin/echo", "hello"}, "echo", 3s}}, {}, limits).at(0);
    ::signal(SIGCHLD, previous);
    EXPECT_LT(std::chrono::steady_clock::now() - started, 1s);  // no poll loop until the deadline
    EXPECT_EQ(outcome.kind, CommandOutcome::Kind::status_lost);
    EXPECT_EQ(outcome.stdout_text, "hello\n");  // the output is kept
}
