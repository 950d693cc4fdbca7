#include "musatop/cli/query_command.hpp"

#include <CLI/CLI.hpp>
#include <charconv>
#include <iostream>

#include "musatop/cli/one_shot.hpp"
#include "musatop/cli/stream.hpp"
#include "musatop/model/view_filter.hpp"
#include "musatop/output/sanitize.hpp"

namespace musatop::cli {

void declare_query_flags(CLI::App& app, QueryFlags& flags) {
    const auto group = "nvidia-smi queries (docs/query.md)";
    app.add_option("--query-gpu", flags.gpu, "CSV of these GPU fields, nvidia-smi's names: index,name,memory.used,...")
        ->type_name("FIELDS")
        ->group(group);
    app.add_option("--query-compute-apps", flags.apps, "CSV of these process fields: pid,process_name,used_memory,...")
        ->type_name("FIELDS")
        ->group(group);
    app.add_option("--format", flags.format, "With a query: csv, and noheader, nounits as nvidia-smi takes them")
        ->type_name("csv[,noheader][,nounits]")
        ->group(group);
    app.add_option("-l,--loop", flags.loop,
                   "Repeat every SECONDS (0.05 to 3600) until Ctrl-C: a query, --json (JSON Lines) or --once, as "
                   "nvidia-smi's -l")
        ->type_name("SECONDS");
}

namespace {

std::optional<double> loop_seconds(const std::string& text) {
    double seconds = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seconds);
    if (error != std::errc{} || end != text.data() + text.size() || !(seconds >= 0.05 && seconds <= 3600))
        return std::nullopt;
    return seconds;
}

}  // namespace

std::optional<std::string> settle_query(const QueryFlags& flags, Options& options) {
    if (flags.loop) {
        options.loop_seconds = loop_seconds(*flags.loop);
        if (!options.loop_seconds)
            return "argument -l/--loop: expected seconds from 0.05 to 3600, got '" + *flags.loop + "'";
    }
    if (!flags.gpu && !flags.apps) {
        if (flags.format) return "--format goes with --query-gpu or --query-compute-apps";
        if (flags.loop && !options.once && !options.json)
            return "-l/--loop repeats a query, --json or --once (the screen refreshes by itself)";
        return std::nullopt;
    }
    if (flags.gpu && flags.apps) return "--query-gpu and --query-compute-apps exclude each other";
    if (options.once || options.json) return "a query prints CSV: it excludes --once and --json";
    if (!flags.format) return "a query needs --format=csv[,noheader][,nounits]";
    auto spec = flags.gpu ? query::parse_query(query::Kind::gpu, *flags.gpu, *flags.format)
                          : query::parse_query(query::Kind::compute_apps, *flags.apps, *flags.format);
    if (!spec.ok()) return spec.error();
    options.query = QueryOptions{spec.value(), options.loop_seconds};
    return std::nullopt;
}

int run_query(const Options& options, Source& source) {
    const QueryOptions& query = *options.query;
    bool first = true;
    const auto sample = [&](const CancelToken& cancel) {
        const Snapshot snapshot = source.collect(cancel);
        const Snapshot view = apply_view(snapshot, options.filter);
        // Errors go to stderr, as nvidia-smi's do: the CSV stays parseable.
        for (const auto& error : snapshot.errors) std::cerr << "musatop: " << sanitize(error) << "\n";
        std::string text = first && query.spec.header ? query_header(query.spec) : "";
        first = false;
        return StreamSample{text + query_rows(query.spec, view), snapshot.failed()};
    };
    StreamSettings settings;
    settings.interval = Seconds(query.loop_seconds.value_or(1.0));
    settings.count = query.loop_seconds ? std::nullopt : std::optional<std::int64_t>(1);
    settings.framing = Framing::lines;
    return run_stream(settings, sample);
}

}  // namespace musatop::cli
