#include "musatop/cli/app.hpp"

#include <unistd.h>

#include <chrono>
#include <iostream>
#include <memory>

#include "musatop/cli/one_shot.hpp"
#include "musatop/cli/options.hpp"
#include <cstdlib>

#include "musatop/collection/demo/demo_source.hpp"
#include "musatop/collection/local_source.hpp"
#include "musatop/collection/procfs/process_enricher.hpp"
#include "musatop/tui/tui_app.hpp"

namespace musatop::cli {
namespace {

std::unique_ptr<Source> make_source(const Options& options) {
    if (options.demo) return std::make_unique<DemoSource>();
    gmi::GmiSettings settings;
    settings.executable = options.gmi;
    settings.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(Seconds(options.timeout_seconds));
    return std::make_unique<LocalSource>(settings);
}

std::string login_name() {
    for (const char* variable : {"LOGNAME", "USER", "LNAME", "USERNAME"})
        if (const char* value = std::getenv(variable); value && *value) return value;
    return procfs::username_for_uid(::getuid());
}

tui::TuiSettings tui_settings(const Options& options) {
    tui::TuiSettings settings;
    settings.interval = to_duration(Seconds(options.interval_seconds));
    settings.filter = options.filter;
    settings.ascii = options.ascii;
    settings.color = !options.no_color && !std::getenv("NO_COLOR");
    settings.login_name = login_name();
    return settings;
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
        auto source = make_source(options);
        const bool interactive = ::isatty(STDIN_FILENO) && ::isatty(STDOUT_FILENO);
        if (options.once || options.json || !interactive) return run_one_shot(options, *source);
        return tui::run_tui(tui_settings(options), std::move(source));
    } catch (const std::exception& error) {
        std::cerr << "musatop: " << error.what() << "\n";
        return 1;
    }
}

}  // namespace musatop::cli
