// `musatop gpustat` and the binary run as `gpustat` (cli/gpustat_command.hpp):
// gpustat's flags, layout and --json on the fixtures, usage errors naming the flag.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "scenario.hpp"

using namespace musatop::testing;
using json = nlohmann::json;

TEST(Gpustat, TheLayoutAndItsColumnsAgreeWithJson) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    const auto doc = json::parse(scenario.run({"--json"}).out);
    auto run = scenario.run({"gpustat"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const std::string host = doc["host"]["hostname"];
    EXPECT_TRUE(run.out.starts_with(host + "  ")) << run.out;
    EXPECT_NE(run.out.find("  3.3.8-server\n[0] X10000 | 34\xc2\xb0"
                           "C,  42 % |  1024 / 81920 MB | ?\?(1024M)\n"),
              std::string::npos)
        << run.out;
    EXPECT_NE(run.out.find("[3] X10000 | ??\xc2\xb0"
                           "C,   0 % |    ?? / 81920 MB | ?\?(512M) ?\?(??M)\n"),
              std::string::npos)
        << run.out;
    run = scenario.run({"gpustat", "-cpP", "--id", "0", "--no-header"});
    EXPECT_EQ(run.out,
              "[0] X10000 | 34\xc2\xb0"
              "C,  42 %, 367 / 950 W |  1024 / 81920 MB | python3/12345(1024M)\n");
    run = scenario.run({"gpustat", "-a", "--no-header", "--id", "0"});
    EXPECT_NE(run.out.find("42 % (E:   0 %  D:   0 %), 367 / 950 W"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("??:python3/12345(1024M)"), std::string::npos) << run.out;  // -a shows the user too
    run = scenario.run({"gpustat", "-f", "--no-header", "--id", "3"});
    EXPECT_NE(run.out.find(" \xe2\x94\x94\xe2\x94\x80   23456 (  N/A,      N/A): /usr/bin/python3\n"),
              std::string::npos)
        << run.out;
}

TEST(Gpustat, ItsJsonDocument) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    const auto run = scenario.run({"gpustat", "--json"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto doc = json::parse(run.out);
    EXPECT_EQ(doc["driver_version"], "3.3.8-server");
    ASSERT_EQ(doc["gpus"].size(), 2u);
    EXPECT_EQ(doc["gpus"][0]["memory.used"], 1024);
    EXPECT_EQ(doc["gpus"][0]["utilization.gpu"], 42);
    EXPECT_TRUE(doc["gpus"][1]["temperature.gpu"].is_null());
    EXPECT_EQ(doc["gpus"][0]["processes"][0]["pid"], 12345);
    EXPECT_EQ(doc["gpus"][0]["processes"][0]["command"], "python3");
    EXPECT_EQ(doc["gpus"][0]["processes"][0]["full_command"][1], "train.py");
}

TEST(Gpustat, RunThroughALinkNamedGpustatAndUnknownFlags) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    auto run = scenario.run_script("ln -s \"$1\" gpustat\n./gpustat --no-header --no-processes --id 3\n");
    EXPECT_EQ(run.out,
              "[3] X10000 | ??\xc2\xb0"
              "C,   0 % |    ?? / 81920 MB |\n")
        << run.err;
    run = scenario.run_script("ln -s \"$1\" gpustat\n./gpustat --query-gpu=index; echo \"status=$?\"\n");
    EXPECT_NE(run.err.find("--query-gpu"), std::string::npos) << run.err;  // gpustat has no such flag
    EXPECT_NE(run.out.find("status=2"), std::string::npos);
    for (const char* bad : {"-x", "--show-power=watts", "--id=a"}) {
        const auto refused = scenario.run({"gpustat", bad});
        EXPECT_EQ(refused.exit_code, 2) << bad;
        EXPECT_NE(refused.err.find(std::string(bad).substr(0, 4)), std::string::npos) << refused.err;
    }
    EXPECT_EQ(scenario.calls("query"), 1);  // only the run that printed
}
