#include "musatop/cli/app.hpp"

#include <unistd.h>

#include <chrono>
#include <iostream>
#include <memory>

#include "musatop/cli/one_shot.hpp"
#include "musatop/cli/recording_commands.hpp"
#include "musatop/cli/options.hpp"
#include <signal.h>

#include <cstdlib>
#include <filesystem>

#include "musatop/collection/demo/demo_source.hpp"
#include "musatop/collection/local_source.hpp"
#include "musatop/collection/procfs/process_enricher.hpp"
#include "musatop/model/view_filter.hpp"
#include "musatop/replay/recorder.hpp"
#include "musatop/serve/serve_app.hpp"
#include "musatop/tui/tui_app.hpp"
#include "musatop/util/version.hpp"

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

// `--record FILE`: the recorder opens with the first snapshot (its host names the
// header); a size limit (SIGXFSZ) then stops the recording, not the screen.
std::function<std::optional<std::string>(const Snapshot&)> screen_recorder(const Options& options) {
    auto recorder = std::make_shared<std::unique_ptr<replay::Recorder>>();
    return [recorder, file = *options.record_file, interval = options.interval_seconds, filter = options.filter](
               const Snapshot& snapshot) -> std::optional<std::string> {
        if (!*recorder) {
            ::signal(SIGXFSZ, SIG_IGN);
            replay::Header header{kVersion, snapshot.host.hostname, interval, snapshot.sampled_at};
            auto opened = replay::Recorder::open({file, replay::OpenMode::create, std::nullopt, 5}, header);
            if (!opened.ok()) return opened.error();
            *recorder = std::move(opened.value());
        }
        // The command line's filters choose what is kept; the screen's own are for looking.
        if (auto written = (*recorder)->append(apply_view(snapshot, filter)); !written.ok()) return written.error();
        return std::nullopt;
    };
}

tui::TuiSettings tui_settings(const Options& options) {
    tui::TuiSettings settings;
    settings.interval = to_duration(Seconds(options.interval_seconds));
    settings.filter = options.filter;
    settings.ascii = options.ascii;
    settings.color = !options.no_color && !std::getenv("NO_COLOR");
    settings.login_name = login_name();
    if (options.record_file) {
        settings.on_snapshot = screen_recorder(options);
        settings.badge = "REC " + *options.record_file;
    }
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
        if (options.record_file && std::filesystem::exists(*options.record_file)) {
            std::cerr << "musatop: " << *options.record_file
                      << " exists; choose another file, or continue it with 'musatop record --append'\n";
            return 1;
        }
        auto source = make_source(options);
        const bool interactive = ::isatty(STDIN_FILENO) && ::isatty(STDOUT_FILENO);
        if (options.record_file && !interactive) {
            std::cerr << "musatop: --record records the screen, which needs a terminal; use 'musatop record FILE'\n";
            return 2;
        }
        if (options.once || options.json || !interactive) return run_one_shot(options, *source);
        return tui::run_tui(tui_settings(options), std::move(source));
    } catch (const std::exception& error) {
        std::cerr << "musatop: " << error.what() << "\n";
        return 1;
    }
}

}  // namespace musatop::cli
