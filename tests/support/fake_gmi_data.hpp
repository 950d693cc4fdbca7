// The one generator of fake mthreads-gmi output: the C++ tests call it directly, the
// soak script through the `fake-gmi-data` program built from the same code.
#pragma once

#include <string>
#include <vector>

namespace musatop::testing {

struct FakeProcessRow {
    int gpu;
    long pid;
    std::string name;
    long memory_mib;
};

// A process table in the real wide layout of gmi 2.x.
std::string gmi_process_table(const std::vector<FakeProcessRow>& rows);

// `-q --json` output for `count` GPUs with the same readings each.
std::string gmi_device_json(int count, const std::string& util = "25%", const std::string& used = "2048MiB",
                            const std::string& uuid_prefix = "uuid-");

}  // namespace musatop::testing
