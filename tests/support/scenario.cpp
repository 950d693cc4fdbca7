#include "scenario.hpp"

#include <filesystem>

#include "child_process.hpp"

namespace musatop::testing {

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

RunResult run_spec(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                   std::chrono::milliseconds limit) {
    auto child = run_child(argv, env, limit);
    RunResult result;
    result.timed_out = child.timed_out;
    result.exit_code = child.exit_code;
    result.out = std::move(child.out);
    result.err = std::move(child.err);
    return result;
}

}  // namespace

RunResult Scenario::run_script(const std::string& script, std::chrono::milliseconds limit) const {
    // In the scenario's own folder: files the script names (err.txt) must not be
    // shared with another test's script running at the same time (ctest -j).
    write_text(dir_ / "script.sh", "cd \"" + dir_.path().string() + "\" || exit 99\n" + script);
    return run_spec({"/bin/bash", (dir_ / "script.sh").string(), MUSATOP_BINARY},
                    {"PATH=" + path_variable(), "FAKE_GMI_DIR=" + dir_.path().string(),
                     "MUSA_HOME=", "MUSA_PATH=", "HOME=" + (dir_ / "home").string()},
                    limit);
}

RunResult Scenario::run(const std::vector<std::string>& args, std::chrono::milliseconds limit,
                        const std::vector<std::string>& extra_env) const {
    std::vector<std::string> argv = {MUSATOP_BINARY};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<std::string> env = {"PATH=" + path_variable(), "FAKE_GMI_DIR=" + dir_.path().string(),
                                    "MUSA_HOME=", "MUSA_PATH=", "TZ=UTC"};
    for (const auto& entry : private_home()) env.push_back(entry);
    // Later entries win: the caller's environment overrides the scenario's.
    std::vector<std::string> merged = extra_env;
    for (const auto& entry : env) {
        const auto name = entry.substr(0, entry.find('=') + 1);
        bool overridden = false;
        for (const auto& extra : extra_env) overridden = overridden || extra.rfind(name, 0) == 0;
        if (!overridden) merged.push_back(entry);
    }
    return run_spec(argv, merged, limit);
}

std::vector<std::string> Scenario::private_home() const {
    return {"HOME=" + (dir_ / "home").string(), "XDG_CONFIG_HOME=", "XDG_STATE_HOME="};
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

namespace musatop::testing {

void Scenario::set_secret(const std::string& name, const std::string& content) const {
    set(name, content);
    std::filesystem::permissions(dir_ / name, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write,
                                 std::filesystem::perm_options::replace);
}

}  // namespace musatop::testing
