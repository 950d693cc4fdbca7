#include "musatop/cli/options.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <sstream>

#include <CLI/CLI.hpp>

#include "musatop/replay/recorder.hpp"
#include "musatop/cli/query_command.hpp"
#include "musatop/cli/settings.hpp"
#include "musatop/util/text.hpp"

namespace musatop::cli {
namespace {

struct UsageError {
    std::string message;
};

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
    // The settings table's flags: the text of each option, whether each flag was given.
    std::map<std::string_view, std::optional<std::string>> setting_text;
    std::map<std::string_view, bool> setting_flag;
    std::optional<std::string> gpus, pids, user, job, container;
    std::optional<std::string> duration, max_size;
    ServeOptions serve_options;
    RecordOptions record_options;
    ReplayOptions replay_options;
    QueryFlags query;
    CLI::App* serve = nullptr;
    CLI::App* record = nullptr;
    CLI::App* replay = nullptr;
};

void declare_main(CLI::App& app, Options& o, RawFlags& raw) {
    app.add_flag("--once", o.once, "Print one text snapshot and exit");
    app.add_flag("--json", o.json, "Print one JSON snapshot (schema version 1) and exit");
    app.add_option("--count", o.count,
                   "With --once or --json: a stream of N samples, every -l/--loop or --interval seconds (1 by default)")
        ->type_name("N")
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40));
    app.add_option("--gpu", raw.gpus, "GPU indices to show, e.g. 0,1")->type_name("IDS");
    app.add_option("--pid", raw.pids, "Host process IDs to show, e.g. 123,456")->type_name("PIDS");
    app.add_option("--user", raw.user, "Show only processes of this exact host user")->type_name("USER");
    app.add_option("--job", raw.job, "Show only processes of this Slurm job ID")->type_name("ID");
    app.add_option("--container", raw.container, "Show only processes of containers whose ID starts with this")
        ->type_name("ID");
    app.add_flag("--demo", o.demo, "Show synthetic GPUs instead of querying mthreads-gmi");
    app.add_option("--record", o.record_file, "Record to FILE while the screen runs (docs/recording.md)")
        ->type_name("FILE");
    app.add_option("--config", o.config_file, "Read settings from FILE instead of the usual config files")
        ->type_name("FILE");
    app.add_flag("--no-config", o.no_config, "Read no config file (MUSATOP_* variables still apply)");
    app.add_option("--write-config", o.write_config,
                   "Write the default settings with comments to FILE (default: the user config file) and exit")
        ->expected(0, 1)
        ->type_name("[FILE]");
    app.add_flag("--force", o.force, "With --write-config: replace an existing file");
}

void declare_subcommands(CLI::App& app, RawFlags& raw) {
    raw.serve = app.add_subcommand(
        "serve", "Run the node agent: Prometheus /metrics and the JSON snapshot over HTTP (see docs/serve.md)");
    raw.serve->fallthrough();  // --raw.interval, --gmi, --raw.timeout, --gpu, --demo, filters: as above
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
    raw.replay->add_option("--from", raw.replay_options.from, "With --json: every snapshot from TIME ...")
        ->type_name("TIME");
    raw.replay->add_option("--to", raw.replay_options.to, "... to TIME, as JSON Lines")->type_name("TIME");
    app.footer(
        "Without --once or --json, and with a terminal on stdin and stdout, musatop runs its\n"
        "interactive screen (press ? there for the keys). Otherwise it prints one text snapshot.\n"
        "'musatop serve --help' describes the node agent (Prometheus /metrics over HTTP);\n"
        "'musatop gpustat --help' gpustat's flags and layout (docs/gpustat.md).\n"
        "\n"
        "Exit codes: 0 success (a closed pipe included), 1 a collection error or stale data,\n"
        "2 bad command line, 128 + the signal when stopped by SIGINT (130), SIGTERM (143),\n"
        "SIGHUP (129) or SIGQUIT (131).");
    raw.serve->footer(
        "The agent also takes --interval, --gmi, --timeout, --gpu, --pid, --user, --job,\n"
        "--container, --sort, --reverse and --demo as described in 'musatop --help'.\n"
        "It listens on loopback unless --listen says otherwise, stops on SIGTERM, SIGINT or\n"
        "SIGQUIT (exit 0), and reads the web config again on SIGHUP and when it changes.");
    raw.record->footer(
        "The recorder also takes --interval (one snapshot each), --demo, --gmi, --timeout, --gpu,\n"
        "--pid, --user, --job and --container as described in 'musatop --help'; the filters\n"
        "choose what is kept. It stops on SIGINT, SIGTERM, SIGHUP or SIGQUIT with the file whole.");
}

// Flags with a settings row: declared from the table (name, argument, help), so the
// flag, the config key and the variable cannot drift apart.
std::string setting_flag_help(const SettingKey& key) {
    if (!key.flag_help.empty()) return std::string(key.flag_help);
    std::string help(key.comment);
    if (help.starts_with("musatop serve: ")) help.erase(0, 15);
    if (help.ends_with('.')) help.pop_back();
    std::string fallback(key.default_toml);
    std::erase(fallback, '"');
    if (key.kind == SettingKind::boolean) return help;
    if (key.kind == SettingKind::choice) {
        std::string choices(key.choices);
        for (std::size_t bar; (bar = choices.find('|')) != std::string::npos;) choices.replace(bar, 1, ", ");
        return help + " (" + choices + "; default: " + fallback + ")";
    }
    return help + " (default: " + fallback + ")";
}

void declare_setting_flags(CLI::App& app, CLI::App& serve, RawFlags& raw) {
    for (const auto& key : setting_keys()) {
        if (key.flag.empty()) continue;
        CLI::App& owner = key.key.starts_with("serve.") ? serve : app;
        const std::string flag(key.flag), help = setting_flag_help(key);
        if (key.kind == SettingKind::boolean) {
            owner.add_flag(flag, raw.setting_flag[key.key], help);
            continue;
        }
        CLI::Option* option = owner.add_option(flag, raw.setting_text[key.key], help);
        option->type_name(std::string(key.type_name));
        if (!key.bare_value.empty()) option->expected(0, 1);
    }
}

void take_last_of_each(CLI::App& app, const RawFlags& raw) {
    for (CLI::App* command : {&app, raw.serve, raw.record, raw.replay})
        for (CLI::Option* option : command->get_options())
            option->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
}

// A flag's text as the table's value, with the messages of the Python tool's argparse.
SettingValue setting_flag_value(const SettingKey& key, const std::string& text) {
    const std::string flag(key.flag), name(key.key);
    if (key.kind == SettingKind::number) {
        return seconds_or_throw(flag, name, text, key.min, key.max);
    }
    if (key.kind == SettingKind::choice) {
        std::string choices, rest(key.choices);
        bool known = false;
        for (std::size_t start = 0; start <= rest.size();) {
            const auto bar = std::min(rest.find('|', start), rest.size());
            const auto choice = rest.substr(start, bar - start);
            known = known || choice == text;
            choices += (choices.empty() ? "'" : ", '") + choice + "'";
            start = bar + 1;
        }
        if (!known)
            throw UsageError{"argument " + flag + ": invalid choice: '" + text + "' (choose from " + choices + ")"};
    }
    return text;
}

void apply_setting_flags(Options& o, const RawFlags& raw) {
    for (const auto& key : setting_keys()) {
        if (key.flag.empty()) continue;
        if (key.kind == SettingKind::boolean) {
            // A flag says the opposite of the built-in default: --reverse, --no-color.
            if (raw.setting_flag.at(key.key)) key.apply(o, key.default_toml != "true");
            continue;
        }
        const auto& text = raw.setting_text.at(key.key);
        if (!text) continue;
        key.apply(
            o, setting_flag_value(key, text->empty() && !key.bare_value.empty() ? std::string(key.bare_value) : *text));
    }
}

// The main flags' text, checked and converted.
void apply_main(Options& o, const RawFlags& raw) {
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
    if (o.count && !o.once && !o.json) throw UsageError{"--count applies to --once and --json"};
    if (o.query && (c.active() || serve->parsed() || record->parsed() || replay->parsed() || o.record_file))
        throw UsageError{"a query reads this host: no cluster view, serve, record, replay or --record"};
    if (o.record_file && (o.once || o.json || serve->parsed() || record->parsed() || replay->parsed()))
        throw UsageError{"--record records the screen; 'musatop record FILE' records without one"};
}

void apply_subcommands(Options& o, RawFlags& raw) {
    if (raw.serve->parsed()) {
        if (o.once || o.json) throw UsageError{"serve: --once and --json do not apply to the agent"};
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
    declare_query_flags(app, raw.query);
    declare_subcommands(app, raw);
    declare_setting_flags(app, *raw.serve, raw);
    take_last_of_each(app, raw);
    parse_and_apply(app, std::vector<std::string>(args.rbegin(), args.rend()), result, {"musatop", "musatop"}, [&] {
        apply_main(o, raw);
        if (auto problem = settle_query(raw.query, o)) throw UsageError{*problem};
        check_modes(app, o, raw, result);
        apply_subcommands(o, raw);
        apply_setting_flags(o, raw);
    });
    return result;
}

void parse_and_apply(CLI::App& app, std::vector<std::string> reversed, ParseResult& result, const CommandNames& names,
                     const std::function<void()>& apply) {
    const auto usage = [&](const std::string& message) {
        result.exit_code = 2;
        result.stderr_text =
            names.command + ": error: " + message + "\nRun '" + names.help + " --help' for the list " + "of options.\n";
    };
    try {
        app.parse(reversed);
        apply();
    } catch (const CLI::CallForHelp&) {
        result.exit_code = 0;
        result.stdout_text = app.help();
    } catch (const CLI::CallForVersion&) {
        result.exit_code = 0;
        result.stdout_text = version_text();
    } catch (const CLI::ParseError& error) {
        usage(error.what());
    } catch (const UsageError& error) {
        usage(error.message);
    }
}

}  // namespace musatop::cli
