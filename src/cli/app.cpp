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
#include "musatop/cli/gpustat_command.hpp"
#include "musatop/cli/query_command.hpp"
#include "musatop/collection/local_source.hpp"
#include "musatop/collection/procfs/process_enricher.hpp"
#include "musatop/model/view_filter.hpp"
#include "musatop/replay/recorder.hpp"
#include "musatop/cli/privilege_guard.hpp"
#include "musatop/collection/procfs/proc_reader.hpp"
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
    auto source = std::make_unique<LocalSource>(settings, options.health, options.driver);
    // The agent's clients and a recording's readers are other users: where /proc
    // hides processes from them, musatop does not show them what it hides.
    if ((options.serve || options.record) && !options.reveal_hidden_processes && procfs::proc_hides_processes()) {
        source->hide_other_users(true);
        std::cerr << "musatop: /proc hides other users' processes (hidepid): their users and command lines are "
                     "left out (--reveal-hidden-processes shows them)\n";
    }
    return source;
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
    settings.process_metrics = o.process_metrics;
    if (o.web_config_file) {
        auto web = serve::load_web_config(*o.web_config_file);
        if (!web.ok()) return Error{"--web-config-file: " + web.error()};
        settings.web = web.value();
        settings.web_config_file = *o.web_config_file;
    }
    return settings;
}

// What this run is, decided once from the options and the terminal.
enum class Mode { cluster, replay, record, serve, query, one_shot, screen };

Mode mode_of(const Options& o, bool interactive) {
    if (o.cluster.active()) return Mode::cluster;
    if (o.replay) return Mode::replay;
    if (o.record) return Mode::record;
    if (o.serve) return Mode::serve;
    if (o.query) return Mode::query;
    return o.once || o.json || !interactive ? Mode::one_shot : Mode::screen;
}

// `--record FILE` on the screen: an existing file, a folder it cannot write to or
// no terminal is said now, not after the screen has started. 0 when it can go on.
int check_screen_record(const Options& options, bool interactive) {
    if (!options.record_file) return 0;
    const std::string& file = *options.record_file;
    if (std::filesystem::exists(file)) {
        std::cerr << "musatop: " << file
                  << " exists; choose another file, or continue it with 'musatop record --append'\n";
        return 1;
    }
    const auto folder = std::filesystem::path(file).parent_path();
    const std::string where = folder.empty() ? "." : folder.string();
    if (::access(where.c_str(), W_OK | X_OK) != 0) {
        std::cerr << "musatop: cannot record to " << file << ": " << where << ": " << std::strerror(errno) << "\n";
        return 1;
    }
    if (!interactive) {
        std::cerr << "musatop: --record records the screen, which needs a terminal; use 'musatop record FILE'\n";
        return 2;
    }
    return 0;
}

int run_serve_mode(const Options& options) {
    auto settings = serve_settings(options);
    if (!settings.ok()) {
        std::cerr << "musatop: error: " << sanitize(settings.error()) << "\n";
        return 2;
    }
    return serve::run_serve(settings.value(), make_source(options));
}

// The settings under the flags, and the node list: --nodes, then MUSATOP_NODES, then
// the config's [cluster] nodes make the cluster view (not for serve, record, replay).
// Only the main screen reads its remembered state, so the files are read once to
// learn which mode this is and, for the screen, again with the state beneath them.
Result<LoadedSettings> settle_options(Options& options, const std::set<std::string>& explicit_keys,
                                      const std::function<const char*(const char*)>& getenv,
                                      const std::optional<privilege::Invoker>& invoker) {
    SettingPaths paths = setting_paths(getenv);
    std::vector<std::string> refused;
    if (invoker)
        if (auto problem = guard_setting_paths(options, *invoker, paths, refused)) return Error{*problem};
    const bool local_only = options.serve || options.record || options.replay;
    // A flag typed on this command line (--demo) wins over the variable and the files.
    if (const char* nodes = getenv("MUSATOP_NODES");
        nodes && *nodes && !local_only && !options.demo && !options.cluster.active())
        options.cluster.nodes = nodes;
    const Options flags = options;
    auto loaded = load_settings(options, explicit_keys, false, paths, getenv);
    if (!loaded.ok()) return loaded;
    loaded.value().warnings.insert(loaded.value().warnings.begin(), refused.begin(), refused.end());
    if (options.cluster.config_nodes && !local_only && !options.demo && !options.cluster.active())
        options.cluster.nodes = options.cluster.config_nodes;
    const bool screen = !options.once && !options.json && !local_only && !options.cluster.active();
    if (!screen) return loaded;
    options = flags;
    auto again = load_settings(options, explicit_keys, true, paths, getenv);
    if (again.ok()) again.value().warnings.insert(again.value().warnings.begin(), refused.begin(), refused.end());
    return again;
}

}  // namespace

int run_program(const std::vector<std::string>& args, bool stdout_closed) {
    ParseResult parsed = !args.empty() && args.front() == "gpustat"
                             ? parse_gpustat_command_line(std::vector<std::string>(args.begin() + 1, args.end()))
                             : parse_command_line(args);
    std::cout << parsed.stdout_text << std::flush;
    std::cerr << sanitize_lines(parsed.stderr_text) << std::flush;  // flag values echoed
    if (parsed.exit_code) return *parsed.exit_code;
    const auto getenv = [](const char* name) { return std::getenv(name); };
    const auto invoker = privilege::elevated_for(getenv);
    if (parsed.options.write_config) return write_config_file(parsed.options, getenv, invoker);
    Options& options = parsed.options;
    auto loaded = settle_options(options, parsed.explicit_keys, getenv, invoker);
    if (loaded.ok() && invoker) {
        const char* path_variable = getenv("PATH");
        if (auto refused = guard_options(options, *invoker, path_variable ? path_variable : ""))
            loaded = Error{*refused};
    }
    if (!loaded.ok()) {
        std::cerr << "musatop: error: " << sanitize(loaded.error()) << "\n";  // config values, MUSATOP_*
        return 2;
    }
    for (const auto& warning : loaded->warnings) std::cerr << "musatop: " << sanitize(warning) << "\n";
    // A stream starts with -l/--loop or --count, as nvidia-smi's do, and with gpustat's
    // -i in gpustat mode; --interval alone is one sample, as Python musatop 0.2.1 had it.
    const bool gpustat_watch = options.gpustat && parsed.explicit_keys.count("interval");
    options.repeat = (options.once || options.json) && !options.serve && !options.record && !options.replay &&
                     (options.count || options.loop_seconds || gpustat_watch);
    if (stdout_closed) {
        std::cerr << "musatop: cannot write the output: standard output is closed\n";
        return 1;
    }
    try {
        const bool interactive = ::isatty(STDIN_FILENO) && ::isatty(STDOUT_FILENO);
        switch (mode_of(options, interactive)) {
            case Mode::cluster: return run_cluster(options, !options.once && !options.json && interactive);
            case Mode::replay: return run_replay(options);
            case Mode::record: return run_record(options, *make_source(options));
            case Mode::serve: return run_serve_mode(options);
            case Mode::query: return run_query(options, *make_source(options));
            case Mode::one_shot:
                if (const int refused = check_screen_record(options, interactive)) return refused;
                return run_one_shot(options, *make_source(options));
            case Mode::screen:
                if (const int refused = check_screen_record(options, interactive)) return refused;
                return tui::run_tui(screen_settings(options, loaded->state_path), make_source(options));
        }
        return 1;
    } catch (const std::exception& error) {
        std::cerr << "musatop: " << sanitize(error.what()) << "\n";
        return 1;
    }
}

}  // namespace musatop::cli
