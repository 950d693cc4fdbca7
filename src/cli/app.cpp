#include "musatop/cli/app.hpp"

#include <unistd.h>

#include <chrono>
#include <iostream>
#include <memory>

#include "musatop/cli/one_shot.hpp"
#include "musatop/cli/recording_commands.hpp"
#include "musatop/cli/options.hpp"
#include <cstdlib>

#include "musatop/collection/demo/demo_source.hpp"
#include "musatop/collection/local_source.hpp"
#include "musatop/collection/procfs/process_enricher.hpp"
#include "musatop/serve/serve_app.hpp"
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

// The agent's settings; a bad address or web config is a usage error (exit 2).
Result<serve::ServeSettings> serve_settings(const Options& options) {
    const ServeOptions& o = *options.serve;
    serve::ServeSettings settings;
    auto listen = serve::parse_listen_address(o.listen);
    if (!listen.ok()) return Error{"argument --listen: " + listen.error()};
    settings.listen = listen.value();
    settings.interval = to_duration(Seconds(options.interval_seconds));
    settings.filter = options.filter;
    if (o.process_metrics)
        settings.process_metrics =
            *o.process_metrics == "command" ? serve::ProcessMetrics::with_command : serve::ProcessMetrics::memory;
    if (o.web_config_file) {
        auto web = serve::load_web_config(*o.web_config_file);
        if (!web.ok()) return Error{"--web-config-file: " + web.error()};
        settings.web = web.value();
    }
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
        if (options.replay) return run_replay(options);
        if (options.record) {
            auto source = make_source(options);
            return run_record(options, *source);
        }
        if (options.serve) {
            auto settings = serve_settings(options);
            if (!settings.ok()) {
                std::cerr << "musatop: error: " << settings.error() << "\n";
                return 2;
            }
            return serve::run_serve(settings.value(), make_source(options));
        }
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
