// Fault injection for the one-shot modes: every fault ends in a precise message, the
// right stale flags and exit code, and no GMI process left running.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "scenario.hpp"

using namespace musatop::testing;
using json = nlohmann::json;

namespace {

struct Outcome {
    RunResult run;
    json doc;
};

Outcome run_json(const Scenario& scenario, std::vector<std::string> args = {}) {
    args.insert(args.begin(), "--json");
    Outcome outcome{scenario.run(args), json()};
    EXPECT_FALSE(outcome.run.timed_out);
    outcome.doc = json::parse(outcome.run.out);
    for (unsigned char c : outcome.run.out) EXPECT_LT(c, 0x80);
    return outcome;
}

void expect_no_gmi_left(const Scenario& scenario) {
    if (!std::filesystem::exists(scenario.dir() / "calls.log")) return;
    std::istringstream log(read_text(scenario.dir() / "calls.log"));
    for (std::string kind, pid; log >> kind >> pid;) EXPECT_TRUE(wait_until_dead(std::stoi(pid))) << kind << " " << pid;
}

}  // namespace

TEST(FaultMatrix, SlowJustUnderTheTimeoutSucceeds) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    scenario.set("query.delay", "0.3");
    scenario.set("summary.delay", "0.3");
    const auto outcome = run_json(scenario, {"--timeout", "1.5"});
    EXPECT_EQ(outcome.run.exit_code, 0);
    EXPECT_TRUE(outcome.doc["errors"].empty());
}

TEST(FaultMatrix, SlowJustOverTheTimeoutIsStale) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    scenario.set("query.delay", "1.5");
    const auto outcome = run_json(scenario, {"--timeout", "0.5"});
    EXPECT_EQ(outcome.run.exit_code, 1);
    EXPECT_EQ(outcome.doc["errors"], json::parse(R"(["devices: GMI command timed out: mthreads-gmi -q --json"])"));
    EXPECT_TRUE(outcome.doc["devices_stale"]);
    EXPECT_FALSE(outcome.doc["processes_stale"]);
    expect_no_gmi_left(scenario);
}

TEST(FaultMatrix, KilledBySignalBothCalls) {
    Scenario scenario;
    scenario.set("query.signal", "KILL");
    scenario.set("summary.signal", "ABRT");
    const auto outcome = run_json(scenario);
    EXPECT_EQ(outcome.run.exit_code, 1);
    EXPECT_EQ(outcome.doc["errors"][0].get<std::string>().rfind("devices: GMI was killed by signal 9 (", 0), 0u);
    EXPECT_EQ(outcome.doc["errors"][1].get<std::string>().rfind("processes: GMI was killed by signal 6 (", 0), 0u);
}

TEST(FaultMatrix, PartialJsonAndPartialTable) {
    Scenario scenario;
    std::string query = fixture("gmi_query.json");
    std::string table = fixture("gmi_x10000_process.txt");
    scenario.set("query.out", query.substr(0, query.size() / 2));
    scenario.set("summary.out", table.substr(0, table.find("111MiB")));
    const auto outcome = run_json(scenario);
    EXPECT_EQ(outcome.run.exit_code, 1);
    EXPECT_EQ(outcome.doc["errors"][0].get<std::string>().rfind("devices: invalid GMI JSON: ", 0), 0u);
    EXPECT_EQ(outcome.doc["errors"][1], "processes: GMI process table contains an unrecognized row");
}

TEST(FaultMatrix, InvalidUtf8AndControlBytesInGmiFields) {
    Scenario scenario;
    scenario.set("query.out", std::string(R"({"GPU":[{"Index":"0","Product Name":"MTT \u001b[31m)") + "\xff\xfe" +
                                  R"(S80\u0007","GPU UUID":"u0"}]})");
    scenario.set("summary.out", gmi_process_table({{0, 4000001, "evil\x1b]0;pwned\x07\xc3\x28name", 5}}));
    const auto outcome = run_json(scenario);
    EXPECT_EQ(outcome.run.exit_code, 0) << outcome.run.out;
    EXPECT_NE(outcome.doc["devices"][0]["name"].get<std::string>().find("S80"), std::string::npos);
    const auto text = scenario.run({"--once"});
    EXPECT_EQ(text.out.find('\x1b'), std::string::npos);
    EXPECT_EQ(text.out.find('\x07'), std::string::npos);
    EXPECT_NE(text.out.find("evil ]0;pwned"), std::string::npos);
}

TEST(FaultMatrix, HundredMegabytesOfOutput) {
    Scenario scenario;
    scenario.set_fixture("summary.out", "gmi_processes.txt");
    scenario.set("query.bytes", std::to_string(100 * 1024 * 1024));
    const auto outcome = run_json(scenario);
    EXPECT_EQ(outcome.run.exit_code, 1);
    EXPECT_EQ(outcome.doc["errors"][0], "devices: GMI output exceeded the size limit: mthreads-gmi -q --json");
    EXPECT_FALSE(outcome.doc["processes_stale"]);
    expect_no_gmi_left(scenario);
}

TEST(FaultMatrix, ProcessTableRefersToAnUnknownGpu) {
    Scenario scenario;
    scenario.set_fixture("query.out", "gmi_query.json");
    scenario.set("summary.out", gmi_process_table({{5, 4000001, "/bin/app", 5}}));
    const auto outcome = run_json(scenario);
    EXPECT_EQ(outcome.run.exit_code, 1);
    EXPECT_EQ(outcome.doc["errors"],
              json::parse(R"(["processes: GMI process table refers to a GPU absent from the current device query"])"));
    EXPECT_TRUE(outcome.doc["processes_stale"]);
    EXPECT_TRUE(outcome.doc["processes_sampled_at"].is_null());
}

TEST(FaultMatrix, StdoutClosed) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    const auto run = scenario.run_script("\"$1\" --json >&- 2> err.txt; echo \"status=$?\"; cat err.txt\n");
    EXPECT_EQ(run.out.rfind("status=1\n", 0), 0u) << run.out;
    EXPECT_NE(run.out.find("musatop: cannot write the output: standard output is closed"), std::string::npos);
}

TEST(FaultMatrix, StdoutFull) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    const auto run = scenario.run_script("\"$1\" --once > /dev/full 2> err.txt; echo \"status=$?\"; cat err.txt\n");
    EXPECT_EQ(run.out.rfind("status=1\n", 0), 0u) << run.out;
    EXPECT_NE(run.out.find("No space left on device"), std::string::npos);
}

// One way to write stdout for every mode (issue 34 #4): the cluster view, replay
// and a stream fail as loudly as --once does.
TEST(FaultMatrix, StdoutFullInEveryMode) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    ASSERT_EQ(
        scenario.run({"record", (scenario.dir() / "r.jsonl.gz").string(), "--interval", "0.1", "--duration", "0.3"})
            .exit_code,
        0);
    for (const std::string& args :
         {std::string("--nodes 127.0.0.1:1 --json --timeout 0.5"),
          std::string("--nodes 127.0.0.1:1 --once --timeout 0.5"), std::string("replay r.jsonl.gz --json"),
          std::string("replay r.jsonl.gz --once"), std::string("replay r.jsonl.gz --json --from +0s"),
          std::string("--json --interval 0.1 --count 2")}) {
        const auto run =
            scenario.run_script("\"$1\" " + args + " > /dev/full 2> err.txt; echo \"status=$?\"; cat err.txt\n");
        EXPECT_EQ(run.out.rfind("status=1\n", 0), 0u) << args << ": " << run.out;
        EXPECT_NE(run.out.find("musatop: cannot write the output: No space left on device"), std::string::npos)
            << args << ": " << run.out;
    }
}

// A stream into a pipe nobody reads (a stalled `| consumer`) still stops on
// SIGTERM, SIGINT and SIGHUP at once, with its status (issue 33 #7).
TEST(FaultMatrix, AStreamIntoAStalledPipeStillStops) {
    Scenario scenario;
    for (const auto& [signal, status] :
         std::vector<std::pair<std::string, std::string>>{{"TERM", "143"}, {"INT", "0"}, {"HUP", "129"}}) {
        const auto run = scenario.run_script(
            "rm -f p; mkfifo p\n"
            "exec 3<>p\n"  // a reader that never reads: the pipe fills at 64 KiB
            "\"$1\" --demo --json --interval 0.05 --count 100000 > p & pid=$!\n"
            "for i in $(seq 1 400); do\n"
            "  w=$(awk '/^wchar/ {print $2}' /proc/$pid/io 2>/dev/null)\n"
            "  [ \"${w:-0}\" -gt 60000 ] && break; sleep 0.05\n"
            "done\n"
            "kill -" +
                signal +
                " $pid; start=$(date +%s%N)\n"
                "wait $pid; echo \"status=$?\"\n"
                "echo \"ms=$(( ($(date +%s%N) - start) / 1000000 ))\"\n",
            std::chrono::seconds(60));
        EXPECT_NE(run.out.find("status=" + status + "\n"), std::string::npos) << signal << ": " << run.out;
        const auto ms = run.out.find("ms=");
        ASSERT_NE(ms, std::string::npos) << run.out;
        EXPECT_LT(std::stol(run.out.substr(ms + 3)), 3000) << signal << ": " << run.out;
    }
}
