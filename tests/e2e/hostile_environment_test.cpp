// The built binary started the way hostile environments start it: SIGCHLD
// ignored by the parent, killed by `timeout` or a hang-up mid-collection.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "child_process.hpp"
#include "fake_gmi_data.hpp"
#include "scenario.hpp"

using namespace musatop::testing;
using namespace std::chrono_literals;

namespace {

std::vector<std::string> scenario_env(const Scenario& scenario) {
    return {"PATH=" + scenario.path_variable(), "FAKE_GMI_DIR=" + scenario.dir().string(),
            "MUSA_HOME=", "MUSA_PATH=", "TZ=UTC"};
}

std::vector<int> fake_pids(const Scenario& scenario) {
    std::vector<int> pids;
    const std::string log = read_text(scenario.dir() / "calls.log");
    for (std::size_t at = 0; at < log.size();) {
        const auto end = log.find('\n', at);
        const std::string line = log.substr(at, end - at);
        pids.push_back(std::stoi(line.substr(line.find(' ') + 1)));
        at = end == std::string::npos ? log.size() : end + 1;
    }
    return pids;
}

}  // namespace

TEST(HostileEnvironment, InheritedSigchldIgnoreStillGivesACorrectSnapshot) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    const auto started = std::chrono::steady_clock::now();
    const auto run = run_child({MUSATOP_BINARY, "--json", "--timeout", "0.5"}, scenario_env(scenario), 20s,
                               /*ignore_sigchld=*/true);
    EXPECT_LT(std::chrono::steady_clock::now() - started, 2s);  // no spin until a deadline
    EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
    const auto json = nlohmann::json::parse(run.out);
    EXPECT_TRUE(json["errors"].empty()) << json["errors"];
    EXPECT_EQ(json["devices"].size(), 2u);
    EXPECT_FALSE(json["devices_stale"].get<bool>());
}

class StopSignal : public ::testing::TestWithParam<int> {};

TEST_P(StopSignal, DuringOneShotKillsGmiAndExitsWith128PlusTheSignal) {
    const int signal = GetParam();
    Scenario scenario;
    scenario.use_reference_fixtures();
    scenario.set("query.hang", "");
    BackgroundChild musatop({MUSATOP_BINARY, "--json", "--timeout", "30"}, scenario_env(scenario));
    ASSERT_TRUE(wait_for([&] {
        const auto log = std::filesystem::exists(scenario.dir() / "calls.log") ? read_text(scenario.dir() / "calls.log")
                                                                               : std::string();
        return log.find("hang-child ") != std::string::npos;
    }));
    ::kill(musatop.pid(), signal);
    const int status = musatop.wait(5s);
    ASSERT_NE(status, -1) << "musatop did not exit";
    ASSERT_TRUE(WIFEXITED(status)) << "died by signal " << WTERMSIG(status);
    EXPECT_EQ(WEXITSTATUS(status), 128 + signal);
    for (int pid : fake_pids(scenario)) EXPECT_TRUE(wait_until_dead(pid)) << "GMI child " << pid << " left behind";
}

INSTANTIATE_TEST_SUITE_P(Signals, StopSignal, ::testing::Values(SIGTERM, SIGHUP, SIGQUIT, SIGINT));

// A container with its own /proc (`unshare --pid --fork --mount-proc`, as Docker and
// Kubernetes give one): GMI's host PIDs 2, 3 and 4 would name the container's own
// processes there, and NSpid shows one level only. Every row must be unverified,
// with the reason, never matched to the wrong process.
TEST(HostileEnvironment, InAPrivatePidNamespaceEveryRowIsUnverified) {
    if (::access("/usr/bin/unshare", X_OK) != 0) GTEST_SKIP() << "unshare is not installed";
    const auto probe = run_child({"/usr/bin/unshare", "--pid", "--fork", "--mount-proc", "/bin/true"}, {}, 10s);
    if (probe.exit_code != 0) GTEST_SKIP() << "this machine allows no PID namespace: " << probe.err;
    Scenario scenario;
    scenario.set("query.out", read_text(std::filesystem::path(MUSATOP_FIXTURES) / "gmi_query.json"));
    scenario.set(
        "summary.out",
        gmi_process_table({{0, 2, "/usr/bin/sleep", 10}, {0, 3, "/usr/bin/sleep", 10}, {0, 4, "/usr/bin/sleep", 10}}));
    const auto run = run_child({"/usr/bin/unshare", "--pid", "--fork", "--mount-proc", "/bin/sh", "-c",
                                "sleep 30 & sleep 30 & sleep 30 & exec \"$0\" --json", MUSATOP_BINARY},
                               scenario_env(scenario), 20s);
    ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
    const auto json = nlohmann::json::parse(run.out);
    ASSERT_EQ(json["processes"].size(), 3u);
    for (const auto& row : json["processes"]) EXPECT_EQ(row["status"], "unverified") << row;
    EXPECT_NE(json["processes_unverified_reason"].get<std::string>().find("PID namespace of its own"),
              std::string::npos);
}
