// End-to-end scenario: a temporary directory with a fake mthreads-gmi first on PATH
// (replaying the files it finds there) and a runner for the built musatop binary.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "fake_gmi_data.hpp"
#include "test_support.hpp"

namespace musatop::testing {

struct RunResult {
    int exit_code = -1;  // -1 when killed by a signal or timed out
    bool timed_out = false;
    std::string out;
    std::string err;
};

class Scenario {
public:
    Scenario();

    // Files steering the fake: see tests/support/fake-gmi.
    void set(const std::string& name, const std::string& content) const { write_text(dir_ / name, content); }
    // A password or token file: readable by its owner only, as musatop requires.
    void set_secret(const std::string& name, const std::string& content) const;
    void set_fixture(const std::string& name, const std::string& fixture_name) const {
        set(name, fixture(fixture_name));
    }
    // The reference fixtures: device JSON, boxed process table, `-v` 2.3.3.
    // HOME inside the scenario (and no XDG overrides): config and state files of
    // the run stay in the test's directory, never the user's.
    std::vector<std::string> private_home() const;
    void use_reference_fixtures() const;

    RunResult run(const std::vector<std::string>& args, std::chrono::milliseconds limit = std::chrono::seconds(20),
                  const std::vector<std::string>& extra_env = {}) const;

    // Runs a bash script (with $1 = the musatop binary) in the scenario's environment.
    RunResult run_script(const std::string& script, std::chrono::milliseconds limit = std::chrono::seconds(30)) const;

    int calls(const std::string& kind) const;
    const std::filesystem::path& dir() const { return dir_.path(); }
    std::string path_variable() const;

private:
    TempDir dir_;
};

}  // namespace musatop::testing
