// The config file and the environment from the built binary: errors stop it
// before anything runs, --write-config never replaces a file unasked, and the
// precedence of flags, variables and files.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "scenario.hpp"

using namespace musatop::testing;

namespace {

std::filesystem::path user_config(const Scenario& scenario) {
    const auto path = scenario.dir() / "home/.config/musatop/config.toml";
    std::filesystem::create_directories(path.parent_path());
    return path;
}

}  // namespace

TEST(SettingsE2e, ABadConfigNamesFileLineAndColumnAndExits2BeforeGmiRuns) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    const auto path = user_config(scenario);
    std::ofstream(path) << "interval = 1\n\n[serve]\nlisten = 9499\n";
    const auto run = scenario.run({"--json"});
    EXPECT_EQ(run.exit_code, 2);
    EXPECT_EQ(run.err, "musatop: error: " + path.string() + ":4:10: serve.listen: expected a string\n");
    EXPECT_TRUE(run.out.empty());
    EXPECT_EQ(scenario.calls("query"), 0);  // nothing started on a half-read config
    const auto ignored = scenario.run({"--json", "--no-config"});
    EXPECT_EQ(ignored.exit_code, 0) << ignored.err;
    const auto bad_variable = scenario.run({"--json"}, std::chrono::seconds(10), {"MUSATOP_TIMEOUT=forever"});
    EXPECT_EQ(bad_variable.exit_code, 2);
}

TEST(SettingsE2e, WriteConfigNeverReplacesWithoutForce) {
    Scenario scenario;
    const auto written = scenario.run({"--write-config"});
    EXPECT_EQ(written.exit_code, 0) << written.err;
    const auto path = user_config(scenario);
    ASSERT_TRUE(std::filesystem::exists(path));
    std::ofstream(path, std::ios::app) << "# mine\n";
    const auto again = scenario.run({"--write-config"});
    EXPECT_EQ(again.exit_code, 1);
    EXPECT_NE(again.err.find("exists; add --force"), std::string::npos);
    EXPECT_NE(read_text(path).find("# mine"), std::string::npos);
    EXPECT_EQ(scenario.run({"--write-config", "--force"}).exit_code, 0);
    EXPECT_EQ(read_text(path).find("# mine"), std::string::npos);
    const auto elsewhere = scenario.dir() / "other.toml";
    EXPECT_EQ(scenario.run({"--write-config", elsewhere.string()}).exit_code, 0);
    // What it wrote is a valid config that changes nothing.
    scenario.use_reference_fixtures();
    EXPECT_EQ(scenario.run({"--json", "--config", elsewhere.string()}).exit_code, 0);
    EXPECT_EQ(scenario.run({"--force"}).exit_code, 2);  // --force alone is a usage error
}

TEST(SettingsE2e, FlagsBeatVariablesBeatTheFile) {
    Scenario scenario;
    scenario.set_fixture("query.out", "gmi_query.json");
    scenario.set("summary.out", gmi_process_table({{0, 4000001, "a", 1}, {3, 4000002, "b", 2}}));
    std::ofstream(user_config(scenario)) << "sort = \"pid\"\nreverse = true\n";
    const auto file = scenario.run({"--json"});
    EXPECT_EQ(nlohmann::json::parse(file.out)["processes"][0]["pid"], 4000002);  // the file: pid, reversed
    const auto variable = scenario.run({"--json"}, std::chrono::seconds(10), {"MUSATOP_REVERSE=no"});
    EXPECT_EQ(nlohmann::json::parse(variable.out)["processes"][0]["pid"], 4000001);
    const auto flag = scenario.run({"--json", "--sort", "gpu_memory"}, std::chrono::seconds(10), {"MUSATOP_SORT=pid"});
    // gpu_memory from the flag, reversed by the file: the smaller (1 MiB) first.
    EXPECT_EQ(nlohmann::json::parse(flag.out)["processes"][0]["pid"], 4000001);
}

// Values echoed in errors come from files, variables and flags anyone may have
// written: their control characters never reach the terminal (an OSC sequence
// here would retitle it, a CSI one clear it).
TEST(SettingsE2e, EchoedValuesCarryNoControlCharacters) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    const std::string hostile =
        "x\x1b]0;pwned\x07\x1b[2J\x9b"
        "1m";
    const auto variable = scenario.run({"--json"}, std::chrono::seconds(10), {"MUSATOP_SORT=" + hostile});
    EXPECT_EQ(variable.exit_code, 2);
    std::ofstream(user_config(scenario)) << "sort = \""
                                         << "x\\u001b]0;pwned\\u0007"
                                         << "\"\n";
    const auto file = scenario.run({"--json"});
    EXPECT_EQ(file.exit_code, 2);
    std::filesystem::remove(user_config(scenario));
    const auto flag = scenario.run({"--json", "--sort", hostile});
    EXPECT_EQ(flag.exit_code, 2);
    for (const auto* run : {&variable, &file, &flag}) {
        EXPECT_FALSE(run->err.empty());
        EXPECT_EQ(run->err.find('\x1b'), std::string::npos) << run->err;
        EXPECT_EQ(run->err.find('\x07'), std::string::npos) << run->err;
        EXPECT_EQ(run->err.find("\xc2\x9b"), std::string::npos) << run->err;
    }
}

// --once on a terminal is coloured (as gpustat and clustat are); NO_COLOR, --no-color
// and a pipe keep it plain. `script` gives the program a terminal.
TEST(SettingsE2e, OnceIsColouredOnATerminalOnly) {
    Scenario scenario;
    const auto on_terminal = [&](const std::string& prefix, const std::string& flags) {
        return scenario.run_script("command -v script >/dev/null || exit 77\n" + prefix +
                                   " script -qec \"$1 --demo --once " + flags + "\" /dev/null");
    };
    const auto coloured = on_terminal("", "");
    if (coloured.exit_code == 77) GTEST_SKIP() << "no script(1) here (bsdutils)";
    EXPECT_NE(coloured.out.find("\x1b[1mmusatop | "), std::string::npos) << coloured.out;
    EXPECT_EQ(on_terminal("NO_COLOR=1", "").out.find('\x1b'), std::string::npos);
    EXPECT_EQ(on_terminal("", "--no-color").out.find('\x1b'), std::string::npos);
    EXPECT_EQ(scenario.run({"--demo", "--once"}).out.find('\x1b'), std::string::npos);  // a pipe
}

// [cluster] nodes in the config file opens the cluster view, as clustat's config
// does; --nodes wins over it, and so does --demo (a flag typed wins over a file);
// --no-config and serve/record ignore it.
TEST(SettingsE2e, TheConfigFilesNodeListOpensTheClusterView) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    const auto config = scenario.dir() / "home/.config/musatop/config.toml";
    std::filesystem::create_directories(config.parent_path());
    std::ofstream(config) << "[cluster]\nnodes = \"127.0.0.1:1\"\n";
    const auto from_file = scenario.run({"--json"});
    EXPECT_EQ(from_file.exit_code, 1);  // the node does not answer
    EXPECT_NE(from_file.out.find("\"address\": \"127.0.0.1:1\""), std::string::npos) << from_file.out;
    const auto demo = scenario.run({"--demo", "--json"});
    EXPECT_EQ(demo.exit_code, 0) << demo.err;
    EXPECT_EQ(demo.out.find("\"kind\": \"cluster\""), std::string::npos) << demo.out;
    const auto demo_env = scenario.run({"--demo", "--json"}, std::chrono::seconds(20), {"MUSATOP_NODES=127.0.0.1:3"});
    EXPECT_EQ(demo_env.out.find("127.0.0.1:3"), std::string::npos) << demo_env.out;
    const auto flag = scenario.run({"--nodes", "127.0.0.1:2", "--json"});
    EXPECT_NE(flag.out.find("\"address\": \"127.0.0.1:2\""), std::string::npos) << flag.out;
    EXPECT_EQ(flag.out.find("127.0.0.1:1"), std::string::npos);
    const auto local = scenario.run({"--demo", "--json", "--no-config"});
    EXPECT_EQ(local.exit_code, 0) << local.err;
    EXPECT_EQ(local.out.find("\"kind\": \"cluster\""), std::string::npos);
}
