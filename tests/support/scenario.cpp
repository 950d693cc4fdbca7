#include "scenario.hpp"

#include <filesystem>

#include "musatop/collection/gmi/command_runner.hpp"

namespace musatop::testing {

std::string gmi_process_table(const std::vector<FakeProcessRow>& rows) {
    std::string text = "Processes:\nID   PID           Process name                           GPU Memory\n"
                       "                                                               Usage\n"
                       "+-------------------------------------------------------------------+\n";
    if (rows.empty()) text += "   No running processes found\n";
    for (const auto& row : rows)
        text += std::to_string(row.gpu) + "    " + std::to_string(row.pid) + "         " + row.name + "      " +
                std::to_string(row.memory_mib) + "MiB\n";
    return text + "---------------------------------------------------------------------\n";
}

std::string gmi_device_json(int count, const std::string& util, const std::string& used,
                            const std::string& uuid_prefix) {
    std::string json = "{\"Driver Version\": \"test-driver\", \"Attached GPUs\": \"" + std::to_string(count) +
                       "\", \"GPU\": [";
    for (int i = 0; i < count; ++i) {
        const std::string index = std::to_string(i);
        json += std::string(i ? "," : "") + "{\"Index\": \"" + index + "\", \"Product Name\": \"MTT-S5000-" + index +
                "\", \"GPU UUID\": \"" + uuid_prefix + index + "\", \"PCI\": {\"Bus ID\": \"00000000:0" + index +
                ":00.0\"}, \"FB Memory Usage\": {\"Total\": \"81920MiB\", \"Used\": \"" + used +
                "\"}, \"Utilization\": {\"Gpu\": \"" + util + "\"}, \"Temperature\": {\"GPU Current Temp\": \"40C\"}, "
                "\"Power Readings\": {\"Power Draw \": \"120W\", \"Current Power Limit\": \"300W\"}}";
    }
    return json + "]}";
}

Scenario::Scenario() {
    std::filesystem::create_directories(dir_ / "bin");
    std::filesystem::create_symlink(MUSATOP_FAKE_GMI, dir_ / "bin/mthreads-gmi");
}

void Scenario::use_reference_fixtures() const {
    set_fixture("query.out", "gmi_query.json");
    set_fixture("summary.out", "gmi_processes.txt");
    set("version.out", "mthreads-gmi version : 2.3.3\n");
}

std::string Scenario::path_variable() const { return (dir_ / "bin").string() + ":/usr/bin:/bin"; }

namespace {

RunResult run_spec(const gmi::CommandSpec& spec, const std::vector<std::string>& env) {
    gmi::RunLimits limits;
    limits.max_output_bytes = 64 * 1024 * 1024;
    const auto outcome = gmi::run_commands({spec}, env, limits).at(0);
    RunResult result;
    result.timed_out = outcome.kind == gmi::CommandOutcome::Kind::timed_out;
    if (outcome.kind == gmi::CommandOutcome::Kind::exited) result.exit_code = outcome.exit_code;
    result.out = outcome.stdout_text;
    result.err = outcome.stderr_text;
    return result;
}

}  // namespace

RunResult Scenario::run_script(const std::string& script, std::chrono::milliseconds limit) const {
    write_text(dir_ / "script.sh", script);
    return run_spec({{"/bin/bash", (dir_ / "script.sh").string(), MUSATOP_BINARY}, "bash", limit},
                    {"PATH=" + path_variable(), "FAKE_GMI_DIR=" + dir_.path().string(), "MUSA_HOME=", "MUSA_PATH="});
}

RunResult Scenario::run(const std::vector<std::string>& args, std::chrono::milliseconds limit,
                        const std::vector<std::string>& extra_env) const {
    gmi::CommandSpec spec;
    spec.argv = {MUSATOP_BINARY};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    spec.display_name = "musatop";
    spec.timeout = limit;
    std::vector<std::string> env = {"PATH=" + path_variable(), "FAKE_GMI_DIR=" + dir_.path().string(),
                                    "MUSA_HOME=", "MUSA_PATH=", "TZ=UTC"};
    // Later entries win: the caller's environment overrides the scenario's.
    std::vector<std::string> merged = extra_env;
    for (const auto& entry : env) {
        const auto name = entry.substr(0, entry.find('=') + 1);
        bool overridden = false;
        for (const auto& extra : extra_env) overridden = overridden || extra.rfind(name, 0) == 0;
        if (!overridden) merged.push_back(entry);
    }
    return run_spec(spec, merged);
}

int Scenario::calls(const std::string& kind) const {
    if (!std::filesystem::exists(dir_ / "calls.log")) return 0;
    const std::string log = read_text(dir_ / "calls.log");
    int n = 0;
    for (std::size_t pos = 0; (pos = log.find(kind + " ", pos)) != std::string::npos; ++pos)
        if (pos == 0 || log[pos - 1] == '\n') ++n;
    return n;
}

}  // namespace musatop::testing
