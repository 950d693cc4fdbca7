#include "musatop/cli/app.hpp"

#include <unistd.h>

#include <chrono>
#include <iostream>
#include <memory>

#include "musatop/cli/one_shot.hpp"
#include "musatop/cli/options.hpp"
#include "musatop/collection/demo/demo_collector.hpp"
#include "musatop/collection/gmi_collector.hpp"
#include "musatop/tui/tui_app.hpp"

namespace musatop::cli {
namespace {

std::unique_ptr<Collector> make_collector(const Options& options) {
    if (options.demo) return std::make_unique<DemoCollector>();
    gmi::GmiSettings settings;
    settings.executable = options.gmi;
    settings.timeout = std::chrono::milliseconds(static_cast<long>(options.timeout_seconds * 1000));
    return std::make_unique<GmiCollector>(settings);
}

}  // namespace

int run_program(const std::vector<std::string>& args, bool stdout_closed) {
    const ParseResult parsed = parse_command_line(args);
    std::cout << parsed.stdout_text << std::flush;
    std::cerr << parsed.stderr_text << std::flush;
    if (parsed.exit_code) return *parsed.exit_code;
    const Options& options = parsed.options;
    if (stdout_closed) {
        std::cerr << "musatop: cannot write the output: standard output is closed\n";
        return 1;
    }
    try {
        auto collector = make_collector(options);
        const bool interactive = ::isatty(STDIN_FILENO) && ::isatty(STDOUT_FILENO);
        if (options.once || options.json || !interactive) return run_one_shot(options, *collector);
        return tui::run_tui(options, std::move(collector));
    } catch (const std::exception& error) {
        std::cerr << "musatop: " << error.what() << "\n";
        return 1;
    }
}

}  // namespace musatop::cli
