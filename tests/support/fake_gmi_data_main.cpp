// fake-gmi-data: prints fake mthreads-gmi output for scripts (the soak), from the
// same generator the C++ tests use.
//   fake-gmi-data query COUNT UTIL USED [UUID_PREFIX]   e.g. query 8 25% 2048MiB soak-
//   fake-gmi-data table GPU:PID:MIB:NAME ...             e.g. table 0:4242:977:worker
#include <iostream>
#include <string>
#include <vector>

#include "fake_gmi_data.hpp"

int main(int argc, char** argv) {
    using namespace musatop::testing;
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.size() >= 4 && args[0] == "query") {
        std::cout << gmi_device_json(std::stoi(args[1]), args[2], args[3], args.size() > 4 ? args[4] : "uuid-") << "\n";
        return 0;
    }
    if (!args.empty() && args[0] == "table") {
        std::vector<FakeProcessRow> rows;
        for (std::size_t i = 1; i < args.size(); ++i) {
            const auto& a = args[i];
            const auto p1 = a.find(':'), p2 = a.find(':', p1 + 1), p3 = a.find(':', p2 + 1);
            if (p3 == std::string::npos) {
                std::cerr << "fake-gmi-data: bad row '" << a << "' (GPU:PID:MIB:NAME)\n";
                return 2;
            }
            rows.push_back({std::stoi(a.substr(0, p1)), std::stol(a.substr(p1 + 1, p2 - p1 - 1)), a.substr(p3 + 1),
                            std::stol(a.substr(p2 + 1, p3 - p2 - 1))});
        }
        std::cout << gmi_process_table(rows);
        return 0;
    }
    std::cerr << "usage: fake-gmi-data query COUNT UTIL USED [UUID_PREFIX] | table GPU:PID:MIB:NAME ...\n";
    return 2;
}
