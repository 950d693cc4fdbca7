#include "musatop/cli/options.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <sstream>

#include <CLI/CLI.hpp>

#include "musatop/replay/recorder.hpp"
#include "musatop/cli/settings.hpp"
#include "musatop/util/text.hpp"

namespace musatop::cli {
namespace {

struct UsageError {
    std::string message;
};

std::string usage_error_text(const std::string& message) {
    return "musatop: error: " + message + "\nRun 'musatop --help' for the list of options.\n";
}

std::set<std::int64_t> index_list_or_throw(const std::string& flag, const std::string& text) {
    auto parsed = parse_index_list(text);
    if (!parsed) throw UsageError{"argument " + flag + ": expected comma-separated nonnegative integers"};
    return *parsed;
}

double seconds_or_throw(const std::string& flag, const std::string& what, const std::string& text, double low,
                        double high) {
    const auto value = parse_seconds(text);
    if (!value) throw UsageError{"argument " + flag + ": " + what + " must be a number"};
    if (!(*value >= low && *value <= high)) {
        std::ostringstream range;
        range << "argument " << flag << ": " << what << " must be between " << low << " and " << high << " seconds";
        throw UsageError{range.str()};
    }
    return *value;
}

}  // namespace

std::string version_text() {
    return std::string("musatop ") + kVersion + " (" + kBuildKind + " build, " + kBuildArch + ")\n";
}

std::optional<std::set<std::int64_t>> parse_index_list(std::string_view text) {
    std::set<std::int64_t> values;
    std::size_t start = 0;
    for (;;) {
        const auto end = std::min(text.find(',', start), text.size());
        auto item = text::trim(text.substr(start, end - start));
        if (!item.empty() && item.front() == '+') item.remove_prefix(1);
        std::int64_t value = -1;
        const auto [ptr, error] = std::from_chars(item.data(), item.data() + item.size(), value);
        if (item.empty() || error != std::errc{} || ptr != item.data() + item.size() || value < 0) return std::nullopt;
        values.insert(value);
        if (end == text.size()) break;
        start = end + 1;
    }
    return values;
}

std::optional<double> parse_seconds(std::string_view text) {
    auto trimmed = text::trim(text);
    if (!trimmed.empty() && trimmed.front() == '+') trimmed.remove_prefix(1);
    double value = 0;
    const auto [end, error] = std::from_chars(trimmed.data(), trimmed.data() + trimmed.size(), value);
    // Out-of-range exponents ("1e999") still name a number: one outside the allowed range.
    if (error == std::errc::result_out_of_range) return std::numeric_limits<double>::infinity();
    if (trimmed.empty() || error != std::errc{} || end != trimmed.data() + trimmed.size()) return std::nullopt;
    return value;
}

ParseResult parse_command_line(const std::vector<std::string>& args) {
    ParseResult result;
    Options& o = result.options;
    CLI::App app{"Monitor Moore Threads GPUs and the host processes that use them.", "musatop"};
    app.set_version_flag("--version", version_text(), "Show the version and exit");
    std::string interval = "1";
    std::string timeout = "3";
    std::optional<std::string> gpus, pids, user, job, container;
    std::string sort = "gpu_memory";
    app.add_flag("--once", o.once, "Print one text snapshot and exit");
    app.add_flag("--json", o.json, "Print one JSON snapshot (schema version 1) and exit");
    app.add_option("--interval", interval, "Sampling interval in seconds, 0.05 to 3600 (default: 1)")
        ->type_name("SECONDS");
    app.add_option("--gpu", gpus, "GPU indices to show, e.g. 0,1")->type_name("IDS");
    app.add_option("--pid", pids, "Host process IDs to show, e.g. 123,456")->type_name("PIDS");
    app.add_option("--user", user, "Show only processes of this exact host user")->type_name("USER");
    app.add_option("--job", job, "Show only processes of this Slurm job ID")->type_name("ID");
    app.add_option("--container", container, "Show only processes of containers whose ID starts with this")
        ->type_name("ID");
    app.add_option("--sort", sort, "Sort processes by gpu_memory, cpu, rss, pid, user or gpu (default: gpu_memory)")
        ->type_name("FIELD");
    app.add_flag("--reverse", o.filter.reverse, "Reverse the default sort direction");
    app.add_flag("--ascii", o.ascii, "Use ASCII bars, trends and borders (TUI only)");
    app.add_flag("--no-color", o.no_color, "Disable colours (TUI only; NO_COLOR also works)");
    app.add_flag("--demo", o.demo, "Show synthetic GPUs instead of querying mthreads-gmi");
    app.add_option("--gmi", o.gmi, "mthreads-gmi to run: a name looked up in PATH, or a path")->type_name("PATH");
    app.add_option("--record", o.record_file, "Record to FILE while the screen runs (docs/recording.md)")
        ->type_name("FILE");
    app.add_option("--timeout", timeout, "Time limit for each mthreads-gmi call, 0.1 to 60 s (default: 3)")
        ->type_name("SECONDS");
    bool no_mouse = false;
    app.add_flag("--no-mouse", no_mouse, "Ignore the mouse on the screen (the terminal selects text as usual)");
    app.add_option("--config", o.config_file, "Read settings from FILE instead of the usual config files")
        ->type_name("FILE");
    app.add_flag("--no-config", o.no_config, "Read no config file (MUSATOP_* variables still apply)");
    app.add_option("--write-config", o.write_config,
                   "Write the default settings with comments to FILE (default: the user config file) and exit")
        ->expected(0, 1)
        ->type_name("[FILE]");
    app.add_flag("--force", o.force, "With --write-config: replace an existing file");
    ClusterOptions& c = o.cluster;
    const auto cluster_group = "Cluster view (docs/cluster.md)";
    app.add_option("--nodes", c.nodes, "Nodes running musatop serve: host[:port], hostlists gpu[01-16] (or MUSATOP_NODES)")
        ->type_name("LIST")->group(cluster_group);
    app.add_option("--nodes-file", c.nodes_file, "Nodes from FILE, one or more per line, # comments")
        ->type_name("FILE")->group(cluster_group);
    app.add_option("-n,--node", c.node_filter, "Only nodes matching: names, wildcards, hostlists, comma-separated")
        ->type_name("FILTER")->group(cluster_group);
    app.add_flag("--show-pid", c.show_pid, "--once: user/pid(memory) for each process")->group(cluster_group);
    app.add_flag("--show-cmd", c.show_cmd, "--once: user:command(memory) for each process")->group(cluster_group);
    app.add_flag("--no-processes", c.no_processes, "--once: no process column")->group(cluster_group);
    app.add_option("--node-user", c.node_user, "Basic-auth user for the nodes")->type_name("USER")->group(cluster_group);
    app.add_option("--node-password-file", c.node_password_file, "Its password, from FILE (never the command line)")
        ->type_name("FILE")->group(cluster_group);
    app.add_option("--node-ca", c.node_ca, "CA certificates for https:// nodes")->type_name("FILE")->group(cluster_group);
    app.add_option("--prometheus", c.prometheus, "Read the nodes from this Prometheus instead")
        ->type_name("URL")->group(cluster_group);
    app.add_option("--prometheus-job", c.prometheus_job, "The scrape job of the agents (default: musatop)")
        ->type_name("NAME")->group(cluster_group);
    app.add_option("--prometheus-user", c.prometheus_user, "Basic-auth user for Prometheus")
        ->type_name("USER")->group(cluster_group);
    app.add_option("--prometheus-password-file", c.prometheus_password_file, "Its password, from FILE")
        ->type_name("FILE")->group(cluster_group);
    app.add_option("--prometheus-bearer-token-file", c.prometheus_bearer_token_file, "A bearer token, from FILE")
        ->type_name("FILE")->group(cluster_group);
    app.add_option("--prometheus-ca", c.prometheus_ca, "CA certificates for an https:// Prometheus")
        ->type_name("FILE")->group(cluster_group);
    ServeOptions serve_options;
    CLI::App* serve = app.add_subcommand(
        "serve", "Run the node agent: Prometheus /metrics and the JSON snapshot over HTTP (see docs/serve.md)");
    serve->fallthrough();  // --interval, --gmi, --timeout, --gpu, --demo, filters: as above
    serve->add_option("--listen", serve_options.listen,
                      "Address to listen on: HOST:PORT, [IPv6]:PORT or :PORT for all (default: 127.0.0.1:9499)")
        ->type_name("ADDR:PORT");
    serve->add_option("--process-metrics", serve_options.process_metrics,
                      "Also export per-process GPU memory; =command adds the command line")
        ->expected(0, 1)
        ->type_name("[command]");
    serve->add_option("--web-config-file", serve_options.web_config_file,
                      "TLS and basic-auth users, in the exporter-toolkit format of node_exporter")
        ->type_name("FILE");
    RecordOptions record_options;
    std::optional<std::string> duration, max_size;
    CLI::App* record = app.add_subcommand("record", "Record snapshots to a file, without a screen (docs/recording.md)");
    record->fallthrough();
    record->add_option("FILE", record_options.file, "The recording (gzip-compressed JSON Lines)")->required();
    record->add_option("--duration", duration, "Stop after this many seconds")->type_name("SECONDS");
    record->add_flag("--append", record_options.append, "Continue an existing recording");
    record->add_flag("--force", record_options.force, "Replace an existing file");
    record->add_option("--max-size", max_size, "Rotate to FILE.1, FILE.2, ... at this size (e.g. 64M)")
        ->type_name("SIZE");
    record->add_option("--max-files", record_options.max_files, "Rotated files to keep (default: 5)")
        ->type_name("N");
    ReplayOptions replay_options;
    CLI::App* replay = app.add_subcommand(
        "replay", "Replay a recording on the screen, or print it with --json or --once (docs/recording.md)");
    replay->fallthrough();
    replay->add_option("FILE", replay_options.files, "Recordings, or one recording and its rotated set")
        ->required();
    replay->add_option("--at", replay_options.at, "The snapshot in force at TIME (default: the last)")
        ->type_name("TIME");
    replay->add_option("--from", replay_options.from, "With --json: every snapshot from TIME ...")->type_name("TIME");
    replay->add_option("--to", replay_options.to, "... to TIME, as JSON Lines")->type_name("TIME");
    for (CLI::App* command : {&app, serve, record, replay})
        for (CLI::Option* option : command->get_options())
            option->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    app.footer(
        "Without --once or --json, and with a terminal on stdin and stdout, musatop runs its\n"
        "interactive screen (press ? there for the keys). Otherwise it prints one text snapshot.\n"
        "'musatop serve --help' describes the node agent (Prometheus /metrics over HTTP).\n"
        "\n"
        "Exit codes: 0 success (a closed pipe included), 1 a collection error or stale data,\n"
        "2 bad command line, 128 + the signal when stopped by SIGINT (130), SIGTERM (143),\n"
        "SIGHUP (129) or SIGQUIT (131).");
    serve->footer(
        "The agent also takes --interval, --gmi, --timeout, --gpu, --pid, --user, --job,\n"
        "--container, --sort, --reverse and --demo as described in 'musatop --help'.\n"
        "It listens on loopback unless --listen says otherwise, and stops on SIGTERM,\n"
        "SIGINT or SIGHUP (exit 0).");

    std::vector<std::string> reversed(args.rbegin(), args.rend());
    try {
        app.parse(reversed);
        o.interval_seconds =
            seconds_or_throw("--interval", "interval", interval, kMinIntervalSeconds, kMaxIntervalSeconds);
        o.timeout_seconds = seconds_or_throw("--timeout", "timeout", timeout, 0.1, 60);
        if (gpus) o.filter.gpu_indices = index_list_or_throw("--gpu", *gpus);
        if (pids) o.filter.pids = index_list_or_throw("--pid", *pids);
        if (user) o.filter.users.push_back(*user);
        if (job) {
            const auto trimmed = text::trim(*job);
            if (trimmed.empty() || trimmed.size() > 18 || !text::all_digits(trimmed))
                throw UsageError{"argument --job: expected a Slurm job ID (digits), got '" + *job + "'"};
            o.filter.slurm_job = std::stoll(std::string(trimmed));
        }
        if (container) {
            const auto trimmed = text::trim(*container);
            if (trimmed.empty()) throw UsageError{"argument --container: expected a container ID or its prefix"};
            o.filter.container_prefix = std::string(trimmed);
        }
        const auto field = sort_field_from_string(sort);
        if (!field)
            throw UsageError{"argument --sort: invalid choice: '" + sort +
                             "' (choose from 'gpu_memory', 'cpu', 'rss', 'pid', 'user', 'gpu')"};
        o.filter.sort = *field;
        o.mouse = !no_mouse;
        if (o.config_file && o.no_config) throw UsageError{"--config and --no-config exclude each other"};
        if (c.prometheus && (c.nodes || c.nodes_file))
            throw UsageError{"--prometheus reads the nodes from Prometheus: it excludes --nodes and --nodes-file"};
        if (c.node_user.has_value() != c.node_password_file.has_value())
            throw UsageError{"--node-user and --node-password-file go together"};
        if (c.active() && (serve->parsed() || record->parsed() || replay->parsed() || o.record_file))
            throw UsageError{"the cluster view is a mode of its own: no serve, record, replay or --record"};
        if (o.force && !o.write_config && !record->parsed())
            throw UsageError{"--force applies to --write-config (and to 'record')"};
        // Flags given on this command line: config files and variables cannot change them.
        for (const auto& key : setting_keys()) {
            if (key.flag.empty()) continue;
            CLI::App* owner = key.key.starts_with("serve.") ? serve : &app;
            if (owner->get_option(std::string(key.flag))->count() > 0) result.explicit_keys.insert(std::string(key.key));
        }
        if (o.record_file && (o.once || o.json || serve->parsed() || record->parsed() || replay->parsed()))
            throw UsageError{"--record records the screen; 'musatop record FILE' records without one"};
        if (serve->parsed()) {
            if (o.once || o.json) throw UsageError{"serve: --once and --json do not apply to the agent"};
            const auto& pm = serve_options.process_metrics;
            if (pm && !pm->empty() && *pm != "command")
                throw UsageError{"argument --process-metrics: invalid value '" + *pm + "' (none or 'command')"};
            o.serve = serve_options;
        }
        if (record->parsed()) {
            if (o.once || o.json) throw UsageError{"record: --once and --json do not apply to the recorder"};
            if (duration) record_options.duration_seconds = seconds_or_throw("--duration", "duration", *duration, 0.05, 1e9);
            if (max_size) {
                record_options.max_bytes = replay::parse_size(*max_size);
                if (!record_options.max_bytes)
                    throw UsageError{"argument --max-size: expected a size such as 64M, 500k or 1G"};
            }
            if (record_options.max_files < 1) throw UsageError{"argument --max-files: must be 1 or more"};
            if (record_options.append && record_options.force)
                throw UsageError{"record: --append and --force exclude each other"};
            o.record = record_options;
        }
        if (replay->parsed()) {
            if (replay_options.at && (replay_options.from || replay_options.to))
                throw UsageError{"replay: --at excludes --from and --to"};
            if ((replay_options.from || replay_options.to) && !o.json)
                throw UsageError{"replay: --from and --to print JSON Lines: give --json"};
            o.replay = replay_options;
        }
    } catch (const CLI::CallForHelp&) {
        result.exit_code = 0;
        result.stdout_text = app.help();
    } catch (const CLI::CallForVersion&) {
        result.exit_code = 0;
        result.stdout_text = version_text();
    } catch (const CLI::ParseError& error) {
        result.exit_code = 2;
        result.stderr_text = usage_error_text(error.what());
    } catch (const UsageError& error) {
        result.exit_code = 2;
        result.stderr_text = usage_error_text(error.message);
    }
    return result;
}

}  // namespace musatop::cli
