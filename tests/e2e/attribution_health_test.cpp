// Owners and health end to end: real processes moved into real cgroups named like
// each runtime's, then `musatop --json/--once` with the fake GMI listing them; and
// the health fixture's findings in every one-shot output.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "cgroup_sandbox.hpp"
#include "scenario.hpp"

using namespace musatop::testing;
using json = nlohmann::json;

namespace {

const std::string kId = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

void list_processes(const Scenario& scenario, const std::vector<pid_t>& pids) {
    std::vector<FakeProcessRow> rows;
    for (const pid_t pid : pids) rows.push_back({0, pid, "/usr/bin/sleep 300", 100});
    scenario.set_fixture("query.out", "gmi_query.json");
    scenario.set("summary.out", gmi_process_table(rows));
}

json process_json(const Scenario& scenario, const std::vector<std::string>& args = {}) {
    std::vector<std::string> all = {"--json", "--sort", "pid"};
    all.insert(all.end(), args.begin(), args.end());
    const auto run = scenario.run(all);
    EXPECT_FALSE(run.timed_out);
    return json::parse(run.out)["processes"];
}

struct RuntimeCase {
    std::string path;
    const char* runtime;  // nullptr: JSON null
    std::string container_id;
};

}  // namespace

TEST(Attribution, RealCgroupsNamedLikeEachRuntime) {
    CgroupSandbox sandbox;
    if (!sandbox.available()) GTEST_SKIP() << "real cgroups not available here: " << sandbox.why_not();
    SleepChild sleeper;
    Scenario scenario;
    list_processes(scenario, {sleeper.pid()});
    const std::vector<RuntimeCase> cases = {
        {"system.slice/docker-" + kId + ".scope", "docker", kId},
        {"docker/" + kId, "docker", kId},
        {"kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod11112222_3333_4444_5555_666677778888.slice/"
         "cri-containerd-" +
             kId + ".scope",
         "containerd", kId},
        {"system.slice/crio-" + kId + ".scope", "cri-o", kId},
        {"machine.slice/libpod-" + kId + ".scope", "podman", kId},
        {"lxc.payload.build-box", "lxc", "build-box"},
    };
    for (const auto& c : cases) {
        if (!sandbox.move(sleeper.pid(), c.path)) GTEST_SKIP() << sandbox.why_not();
        const auto processes = process_json(scenario);
        ASSERT_EQ(processes.size(), 1u) << c.path;
        EXPECT_EQ(processes[0]["container_runtime"], c.runtime) << c.path;
        EXPECT_EQ(processes[0]["container_id"], c.container_id) << c.path;
    }
    // The pod of the containerd case, read back from the same real cgroup.
    ASSERT_TRUE(sandbox.move(sleeper.pid(), cases[2].path));
    EXPECT_EQ(process_json(scenario)[0]["pod_uid"], "11112222-3333-4444-5555-666677778888");
    EXPECT_EQ(process_json(scenario)[0]["pod_qos_class"], "burstable");
}

TEST(Attribution, SlurmJobsFilterAndShowInEveryOutput) {
    CgroupSandbox sandbox;
    if (!sandbox.available()) GTEST_SKIP() << "real cgroups not available here: " << sandbox.why_not();
    SleepChild in_job;
    SleepChild in_container;
    SleepChild elsewhere;
    if (!sandbox.move(in_job.pid(), "slurm/uid_1000/job_4242/step_0") ||
        !sandbox.move(in_container.pid(), "system.slice/docker-" + kId + ".scope"))
        GTEST_SKIP() << sandbox.why_not();
    Scenario scenario;
    list_processes(scenario, {in_job.pid(), in_container.pid(), elsewhere.pid()});

    const auto all = process_json(scenario);
    ASSERT_EQ(all.size(), 3u);
    const auto job = process_json(scenario, {"--job", "4242"});
    ASSERT_EQ(job.size(), 1u);
    EXPECT_EQ(job[0]["pid"], in_job.pid());
    EXPECT_EQ(job[0]["slurm_job_id"], 4242);
    EXPECT_EQ(job[0]["slurm_step"], "0");
    EXPECT_TRUE(job[0]["container_id"].is_null());
    const auto container = process_json(scenario, {"--container", kId.substr(0, 6)});
    ASSERT_EQ(container.size(), 1u);
    EXPECT_EQ(container[0]["pid"], in_container.pid());
    EXPECT_TRUE(process_json(scenario, {"--job", "4243"}).empty());
    EXPECT_TRUE(process_json(scenario, {"--container", "ffff"}).empty());

    const auto text = scenario.run({"--once", "--sort", "pid"}).out;
    EXPECT_NE(text.find(" JOB "), std::string::npos) << text;
    EXPECT_NE(text.find("4242.0 "), std::string::npos) << text;
    EXPECT_NE(text.find(kId.substr(0, 12) + " "), std::string::npos) << text;
    EXPECT_EQ(text.find(kId.substr(0, 13)), std::string::npos) << text;  // cut to a Docker short id
}

// A job may make folders in its own delegated cgroup subtree named like another
// job's: only the folders root made name the owner (issue 33 #3).
TEST(Attribution, AFolderAJobMadeCannotClaimAnotherJob) {
    CgroupSandbox sandbox;
    if (!sandbox.available()) GTEST_SKIP() << "real cgroups not available here: " << sandbox.why_not();
    SleepChild sleeper;
    const std::string real = "slurm/uid_1000/job_77/step_1";
    if (!sandbox.move(sleeper.pid(), real + "/user/slurm/job_4242/step_0")) GTEST_SKIP() << sandbox.why_not();
    Scenario scenario;
    list_processes(scenario, {sleeper.pid()});
    EXPECT_EQ(process_json(scenario)[0]["slurm_job_id"], 4242);  // root made every folder: believed
    // As a delegated subtree is: the job's user owns user/ and what it made inside.
    for (const std::string folder : {"/user", "/user/slurm", "/user/slurm/job_4242", "/user/slurm/job_4242/step_0"})
        ASSERT_EQ(::chown(sandbox.path(real + folder).c_str(), 65534, 65534), 0) << folder;
    const auto processes = process_json(scenario);
    EXPECT_EQ(processes[0]["slurm_job_id"], 77);
    EXPECT_EQ(processes[0]["slurm_step"], "1");
    EXPECT_TRUE(process_json(scenario, {"--job", "4242"}).empty());
}

TEST(Attribution, BadFilterValuesAreUsageErrors) {
    Scenario scenario;
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"--job", "12x"}, {"--job", ""}, {"--job", "-4"}, {"--container", " "}}) {
        const auto run = scenario.run(args);
        EXPECT_EQ(run.exit_code, 2) << args[0] << " " << args[1];
        EXPECT_NE(run.err.find("argument " + args[0]), std::string::npos) << run.err;
    }
}

TEST(Health, FindingsInJsonAndTextWithoutFailingTheRun) {
    Scenario scenario;
    scenario.set_fixture("query.out", "gmi_query_health.json");
    scenario.set_fixture("summary.out", "gmi_x10000_process.txt");
    const auto run = scenario.run({"--json"});
    EXPECT_EQ(run.exit_code, 0) << run.err;  // findings describe the GPUs; collection worked
    const auto doc = json::parse(run.out);
    EXPECT_EQ(doc["health"], json::parse(R"j(["GMI counts 3 attached GPUs but lists 2: 1 missing (a lost card?)"])j"));
    EXPECT_TRUE(doc["devices"][0]["health"].empty());
    EXPECT_EQ(doc["devices"][0]["pcie_link_width_max"], 16);
    EXPECT_EQ(doc["devices"][0]["bios_version"], "4.3.41");
    const auto& findings = doc["devices"][1]["health"];
    ASSERT_EQ(findings.size(), 5u) << findings;
    EXPECT_EQ(findings[0], "PCIe link x4, below its maximum x16");
    EXPECT_EQ(findings[1], "PCIe gen 3 while 95% busy, below its maximum gen 5");
    EXPECT_EQ(findings[2], "power draw 948 W at its 950 W limit");
    EXPECT_NE(findings[3].get<std::string>().find("throttling, inferred"), std::string::npos);
    EXPECT_EQ(findings[4], "retired pages pending: a GPU reset retires them");

    const auto text = scenario.run({"--once"});
    EXPECT_EQ(text.exit_code, 0);
    EXPECT_NE(text.out.find("\nHEALTH: GMI counts 3 attached GPUs"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("\nHEALTH: GPU 1: PCIe link x4, below its maximum x16\n"), std::string::npos);
    EXPECT_EQ(text.out.find("HEALTH: GPU 0"), std::string::npos);
    // --gpu 0 hides GPU 1 and its findings; the host's finding stays.
    const auto only0 = scenario.run({"--once", "--gpu", "0"});
    EXPECT_EQ(only0.out.find("HEALTH: GPU 1"), std::string::npos);
    EXPECT_NE(only0.out.find("HEALTH: GMI counts"), std::string::npos);
}

// Sample 005: GMI's JSON lists 2 GPUs of the 8 it counts, and the summary table
// shows all 8. The machine has 8: the JSON's two, six from the table with what
// it knows (no UUID invented), and a finding that says so instead of "lost card".
TEST(Health, AJsonListingFewerGpusThanItCountsIsCompletedFromTheSummary) {
    Scenario scenario;
    scenario.set_fixture("query.out", "005-s5000-json-excerpt-drv3.3.5.json");
    scenario.set_fixture("summary.out", "003-s5000x8-table-noprocs-gmi2.4.1-drv5.1.0.txt");
    const auto run = scenario.run({"--json"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto doc = json::parse(run.out);
    ASSERT_EQ(doc["devices"].size(), 8u);
    EXPECT_EQ(doc["devices"][0]["uuid"], "399282a8-ba01-1475-893c-2eeca9e302f5");  // from the JSON
    EXPECT_EQ(doc["devices"][2]["bus_id"], "00000000:4b:00.0");                    // from the table
    EXPECT_EQ(doc["devices"][2]["name"], "MTT S5000");
    EXPECT_TRUE(doc["devices"][2]["uuid"].is_null());
    EXPECT_EQ(doc["devices"][2]["memory_total_bytes"], 81920LL << 20);
    EXPECT_TRUE(doc["devices"][2]["serial_number"].is_null());  // the table does not say: unknown
    EXPECT_EQ(
        doc["health"],
        json::parse(
            R"j(["GMI's JSON lists 2 of 8 GPUs; the other 6 are read from its summary table (name, bus, memory and utilisation; the rest unknown)"])j"));
}
