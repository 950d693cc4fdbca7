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

namespace {

// What the command line gives as text before it is checked and converted.
struct RawFlags {
    std::string interval = "1";
    std::string timeout = "3";
    std::optional<std::string> gpus, pids, user, job, container;
    std::string sort = "gpu_memory";
    bool no_mouse = false;
    std::optional<std::string> duration, max_size;
    ServeOptions serve_options;
    RecordOptions record_options;
    ReplayOptions replay_options;
    CLI::App* serve = nullptr;
    CLI::App* record = nullptr;
    CLI::App* replay = nullptr;
};

void declare_main(CLI::App& app, Options& o, RawFlags& raw) {
    app.add_flag("--once", o.once, "Print one text snapshot and exit");
    app.add_flag("--json", o.json, "Print one JSON snapshot (schema version 1) and exit");
    app.add_option("--interval", raw.interval, "Sampling interval in seconds, 0.05 to 3600 (default: 1)")
        ->type_name("SECONDS");
    app.add_option("--gpu", raw.gpus, "GPU indices to show, e.g. 0,1")->type_name("IDS");
    app.add_option("--pid", raw.pids, "Host process IDs to show, e.g. 123,456")->type_name("PIDS");
    app.add_option("--user", raw.user, "Show only processes of this exact host user")->type_name("USER");
    app.add_option("--job", raw.job, "Show only processes of this Slurm job ID")->type_name("ID");
    app.add_option("--container", raw.container, "Show only processes of containers whose ID starts with this")
        ->type_name("ID");
    app.add_option("--sort", raw.sort, "Sort processes by gpu_memory, cpu, rss, pid, user or gpu (default: gpu_memory)")
        ->type_name("FIELD");
    app.add_flag("--reverse", o.filter.reverse, "Reverse the default sort direction");
    app.add_flag("--ascii", o.ascii, "Use ASCII bars, trends and borders (TUI only)");
    app.add_flag("--no-color", o.no_color, "Disable colours (TUI only; NO_COLOR also works)");
    app.add_flag("--demo", o.demo, "Show synthetic GPUs instead of querying mthreads-gmi");
    app.add_option("--gmi", o.gmi, "mthreads-gmi to run: a name looked up in PATH, or a path")->type_name("PATH");
    app.add_option("--record", o.record_file, "Record to FILE while the screen runs (docs/recording.md)")
        ->type_name("FILE");
    app.add_option("--timeout", raw.timeout, "Time limit for each mthreads-gmi call, 0.1 to 60 s (default: 3)")
        ->type_name("SECONDS");
    app.add_flag("--no-mouse", raw.no_mouse, "Ignore the mouse on the screen (the terminal selects text as usual)");
    app.add_option("--config", o.config_file, "Read settings from FILE instead of the usual config files")
        ->type_name("FILE");
    app.add_flag("--no-config", o.no_config, "Read no config file (MUSATOP_* variables still apply)");
    app.add_option("--write-config", o.write_config,
                   "Write the default settings with comments to FILE (default: the user config file) and exit")
        ->expected(0, 1)
        ->type_name("[FILE]");
    app.add_flag("--force", o.force, "With --write-config: replace an existing file");
}

void declare_cluster(CLI::App& app, ClusterOptions& c) {
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
}

void declare_subcommands(CLI::App& app, RawFlags& raw) {
    raw.serve = app.add_subcommand(
        "serve", "Run the node agent: Prometheus /metrics and the JSON snapshot over HTTP (see docs/serve.md)");
    raw.serve->fallthrough();  // --raw.interval, --gmi, --raw.timeout, --gpu, --demo, filters: as above
    raw.serve->add_option("--listen", raw.serve_options.listen,
                      "Address to listen on: HOST:PORT, [IPv6]:PORT or :PORT for all (default: 127.0.0.1:9499)")
        ->type_name("ADDR:PORT");
    raw.serve->add_option("--process-metrics", raw.serve_options.process_metrics,
                      "Also export per-process GPU memory; =command adds the command line")
        ->expected(0, 1)
        ->type_name("[command]");
    raw.serve->add_option("--web-config-file", raw.serve_options.web_config_file,
                      "TLS and basic-auth users, in the exporter-toolkit format of node_exporter")
        ->type_name("FILE");
    raw.record = app.add_subcommand("record", "Record snapshots to a file, without a screen (docs/recording.md)");
    raw.record->fallthrough();
    raw.record->add_option("FILE", raw.record_options.file, "The recording (gzip-compressed JSON Lines)")->required();
    raw.record->add_option("--duration", raw.duration, "Stop after this many seconds")->type_name("SECONDS");
    raw.record->add_flag("--append", raw.record_options.append, "Continue an existing recording");
    raw.record->add_flag("--force", raw.record_options.force, "Replace an existing file");
    raw.record->add_option("--max-size", raw.max_size, "Rotate to FILE.1, FILE.2, ... at this size (e.g. 64M)")
        ->type_name("SIZE");
    raw.record->add_option("--max-files", raw.record_options.max_files, "Rotated files to keep (default: 5)")
        ->type_name("N");
    raw.replay = app.add_subcommand(
        "replay", "Replay a recording on the screen, or print it with --json or --once (docs/recording.md)");
    raw.replay->fallthrough();
    raw.replay->add_option("FILE", raw.replay_options.files, "Recordings, or one recording and its rotated set")
        ->required();
    raw.replay->add_option("--at", raw.replay_options.at, "The snapshot in force at TIME (default: the last)")
        ->type_name("TIME");
    raw.replay->add_option("--from", raw.replay_options.from, "With --json: every snapshot from TIME ...")->type_name("TIME");
    raw.replay->add_option("--to", raw.replay_options.to, "... to TIME, as JSON Lines")->type_name("TIME");
    for (CLI::App* command : {&app, raw.serve, raw.record, raw.replay})
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
    raw.serve->footer(
        "The agent also takes --interval, --gmi, --timeout, --gpu, --pid, --user, --job,\n"
        "--container, --sort, --reverse and --demo as described in 'musatop --help'.\n"
        "It listens on loopback unless --listen says otherwise, and stops on SIGTERM,\n"
        "SIGINT, SIGHUP or SIGQUIT (exit 0).");
    raw.record->footer(
        "The recorder also takes --interval (one snapshot each), --demo, --gmi, --timeout, --gpu,\n"
        "--pid, --user, --job and --container as described in 'musatop --help'; the filters\n"
        "choose what is kept. It stops on SIGINT, SIGTERM, SIGHUP or SIGQUIT with the file whole.");

}

// The main flags' text, checked and converted.
void apply_main(Options& o, const RawFlags& raw) {
    o.interval_seconds =
        seconds_or_throw("--interval", "interval", raw.interval, kMinIntervalSeconds, kMaxIntervalSeconds);
    o.timeout_seconds = seconds_or_throw("--timeout", "timeout", raw.timeout, 0.1, 60);
    if (raw.gpus) o.filter.gpu_indices = index_list_or_throw("--gpu", *raw.gpus);
    if (raw.pids) o.filter.pids = index_list_or_throw("--pid", *raw.pids);
    if (raw.user) o.filter.users.push_back(*raw.user);
    if (raw.job) {
        const auto trimmed = text::trim(*raw.job);
        if (trimmed.empty() || trimmed.size() > 18 || !text::all_digits(trimmed))
            throw UsageError{"argument --job: expected a Slurm job ID (digits), got '" + *raw.job + "'"};
        o.filter.slurm_job = std::stoll(std::string(trimmed));
    }
    if (raw.container) {
        const auto trimmed = text::trim(*raw.container);
        if (trimmed.empty()) throw UsageError{"argument --container: expected a container ID or its prefix"};
        o.filter.container_prefix = std::string(trimmed);
    }
    const auto field = sort_field_from_string(raw.sort);
    if (!field)
        throw UsageError{"argument --sort: invalid choice: '" + raw.sort +
                         "' (choose from 'gpu_memory', 'cpu', 'rss', 'pid', 'user', 'gpu')"};
    o.filter.sort = *field;
    o.mouse = !raw.no_mouse;
}

// Modes and flags that exclude each other; the keys the command line fixed.
void check_modes(CLI::App& app, const Options& o, const RawFlags& raw, ParseResult& result) {
    const ClusterOptions& c = o.cluster;
    CLI::App* serve = raw.serve;
    CLI::App* record = raw.record;
    CLI::App* replay = raw.replay;
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
}

void apply_subcommands(Options& o, RawFlags& raw) {
    if (raw.serve->parsed()) {
        if (o.once || o.json) throw UsageError{"serve: --once and --json do not apply to the agent"};
        const auto& pm = raw.serve_options.process_metrics;
        if (pm && !pm->empty() && *pm != "command")
            throw UsageError{"argument --process-metrics: invalid value '" + *pm + "' (none or 'command')"};
        o.serve = raw.serve_options;
    }
    if (raw.record->parsed()) {
        if (o.once || o.json) throw UsageError{"record: --once and --json do not apply to the recorder"};
        if (raw.duration)
            raw.record_options.duration_seconds = seconds_or_throw("--duration", "duration", *raw.duration, 0.05, 1e9);
        if (raw.max_size) {
            raw.record_options.max_bytes = replay::parse_size(*raw.max_size);
            if (!raw.record_options.max_bytes)
                throw UsageError{"argument --max-size: expected a size such as 64M, 500k or 1G"};
        }
        if (raw.record_options.max_files < 1) throw UsageError{"argument --max-files: must be 1 or more"};
        if (raw.record_options.append && raw.record_options.force)
            throw UsageError{"record: --append and --force exclude each other"};
        o.record = raw.record_options;
    }
    if (raw.replay->parsed()) {
        if (raw.replay_options.at && (raw.replay_options.from || raw.replay_options.to))
            throw UsageError{"replay: --at excludes --from and --to"};
        if ((raw.replay_options.from || raw.replay_options.to) && !o.json)
            throw UsageError{"replay: --from and --to print JSON Lines: give --json"};
        o.replay = raw.replay_options;
    }
}

}  // namespace

ParseResult parse_command_line(const std::vector<std::string>& args) {
    ParseResult result;
    Options& o = result.options;
    CLI::App app{"Monitor Moore Threads GPUs and the host processes that use them.", "musatop"};
    app.set_version_flag("--version", version_text(), "Show the version and exit");
    RawFlags raw;
    declare_main(app, o, raw);
    declare_cluster(app, o.cluster);
    declare_subcommands(app, raw);
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    try {
        app.parse(reversed);
        apply_main(o, raw);
        check_modes(app, o, raw, result);
        apply_subcommands(o, raw);
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
