#include "musatop/cli/app.hpp"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>

#include "musatop/cli/cluster_command.hpp"
#include "musatop/cli/one_shot.hpp"
#include "musatop/cli/recording_commands.hpp"
#include "musatop/cli/options.hpp"
#include "musatop/cli/screen_settings.hpp"
#include "musatop/cli/settings.hpp"
#include <signal.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "musatop/collection/demo/demo_source.hpp"
#include "musatop/collection/local_source.hpp"
#include "musatop/collection/procfs/process_enricher.hpp"
#include "musatop/model/view_filter.hpp"
#include "musatop/replay/recorder.hpp"
#include "musatop/serve/serve_app.hpp"
#include "musatop/tui/tui_app.hpp"
#include "musatop/util/version.hpp"
#include "musatop/output/sanitize.hpp"

namespace musatop::cli {
namespace {

std::unique_ptr<Source> make_source(const Options& options) {
    if (options.demo) return std::make_unique<DemoSource>(options.health);
    gmi::GmiSettings settings;
    settings.executable = options.gmi;
    settings.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(Seconds(options.timeout_seconds));
    return std::make_unique<LocalSource>(settings, options.health);
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
    ParseResult parsed = parse_command_line(args);
    std::cout << parsed.stdout_text << std::flush;
    std::cerr << sanitize_lines(parsed.stderr_text) << std::flush;  // flag values echoed
    if (parsed.exit_code) return *parsed.exit_code;
    const auto getenv = [](const char* name) { return std::getenv(name); };
    if (parsed.options.write_config) return write_config_file(parsed.options, getenv);
    Options& options = parsed.options;
    const bool screen = !options.once && !options.json && !options.serve && !options.record;
    const auto loaded = load_settings(options, parsed.explicit_keys, screen, setting_paths(getenv), getenv);
    if (!loaded.ok()) {
        std::cerr << "musatop: error: " << sanitize(loaded.error()) << "\n";  // config values, MUSATOP_*
        return 2;
    }
    for (const auto& warning : loaded->warnings) std::cerr << "musatop: " << sanitize(warning) << "\n";
    if (stdout_closed) {
        std::cerr << "musatop: cannot write the output: standard output is closed\n";
        return 1;
    }
    try {
        if (!options.cluster.active())
            if (const char* nodes = std::getenv("MUSATOP_NODES"); nodes && *nodes && !options.serve && !options.record &&
                                                                  !options.replay)
                options.cluster.nodes = nodes;
        if (options.cluster.active())
            return run_cluster(options, !options.once && !options.json && ::isatty(STDIN_FILENO) &&
                                            ::isatty(STDOUT_FILENO));
        if (options.replay) return run_replay(options);
        if (options.record) {
            auto source = make_source(options);
            return run_record(options, *source);
        }
        if (options.serve) {
            auto settings = serve_settings(options);
            if (!settings.ok()) {
                std::cerr << "musatop: error: " << sanitize(settings.error()) << "\n";
                return 2;
            }
            return serve::run_serve(settings.value(), make_source(options));
        }
        if (options.record_file && std::filesystem::exists(*options.record_file)) {
            std::cerr << "musatop: " << *options.record_file
                      << " exists; choose another file, or continue it with 'musatop record --append'\n";
            return 1;
        }
        if (options.record_file) {  // a folder it cannot write to: said now, not after the screen has started
            const auto folder = std::filesystem::path(*options.record_file).parent_path();
            const std::string where = folder.empty() ? "." : folder.string();
            if (::access(where.c_str(), W_OK | X_OK) != 0) {
                std::cerr << "musatop: cannot record to " << *options.record_file << ": " << where << ": "
                          << std::strerror(errno) << "\n";
                return 1;
            }
        }
        auto source = make_source(options);
        const bool interactive = ::isatty(STDIN_FILENO) && ::isatty(STDOUT_FILENO);
        if (options.record_file && !interactive) {
            std::cerr << "musatop: --record records the screen, which needs a terminal; use 'musatop record FILE'\n";
            return 2;
        }
        if (options.once || options.json || !interactive) return run_one_shot(options, *source);
        return tui::run_tui(screen_settings(options, loaded->state_path), std::move(source));
    } catch (const std::exception& error) {
        std::cerr << "musatop: " << sanitize(error.what()) << "\n";
        return 1;
    }
}

}  // namespace musatop::cli
