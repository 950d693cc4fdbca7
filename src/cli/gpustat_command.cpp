#include "musatop/cli/gpustat_command.hpp"

#include <CLI/CLI.hpp>
#include <ctime>

#include "musatop/output/sanitize.hpp"
#include "musatop/util/text.hpp"
#include "musatop/util/version.hpp"

namespace musatop::cli {
namespace {

struct GpustatFlags {
    bool show_all = false;
    std::optional<std::string> power, id, interval, node_filter, user, gpuname_width;
    bool color = false, no_color = false;
};

void declare(CLI::App& app, Options& o, GpustatFlags& f) {
    GpustatStyle& s = o.cluster.text;
    app.add_flag("-c,--show-cmd", s.show_cmd, "Show the command name of each process");
    app.add_flag("-f,--show-full-cmd", s.full_cmd, "Show the command line, CPU and RSS of each process below its GPU");
    app.add_flag("-u,--show-user", s.show_user, "Show the user of each process (with -c too)");
    app.add_flag("-p,--show-pid", s.show_pid, "Show the PID of each process");
    app.add_flag("-F,--show-fan", s.show_fan, "Show the fan speed");
    app.add_flag("-e,--show-codec", s.show_codec, "Show encoder and decoder utilisation");
    app.add_option("-P,--show-power", f.power, "Show power draw and limit (=draw, =limit, =draw,limit)")
        ->expected(0, 1)
        ->type_name("[draw,limit]");
    app.add_flag("-a,--show-all", f.show_all, "All of -c -u -p -F -e -P");
    app.add_option("--id", f.id, "Only these GPU indices, e.g. 0,1")->type_name("IDS");
    app.add_option("-i,--interval,--watch", f.interval, "Watch mode: redraw every SEC seconds (1 when no value)")
        ->expected(0, 1)
        ->type_name("[SEC]");
    app.add_flag("--no-header", o.gpustat_no_header, "Leave out the header line");
    app.add_flag("--no-processes", s.no_processes, "Leave out the processes");
    app.add_flag("--color", f.color, "Colour even into a pipe");
    app.add_flag("--no-color", f.no_color, "Never colour");
    app.add_option("--gpuname-width", f.gpuname_width, "Width of the GPU name column")->type_name("N");
    app.add_flag("--json", o.json, "gpustat's JSON document");
    // The cluster: the nodes as musatop takes them, and clustat's filters.
    app.add_option("--nodes", o.cluster.nodes, "Nodes running musatop serve (docs/cluster.md)")->type_name("LIST");
    app.add_option("--nodes-file", o.cluster.nodes_file, "Nodes from FILE")->type_name("FILE");
    app.add_option("--prometheus", o.cluster.prometheus, "The nodes from this Prometheus")->type_name("URL");
    app.add_option("-n,--node", f.node_filter, "Only nodes matching: names, wildcards, hostlists")->type_name("FILTER");
    app.add_option("--user", f.user, "Only processes of this user (clustat's -user)")->type_name("USER");
    app.add_flag("--no-latency", o.cluster.no_latency, "Leave the latency out of each node's header");
    app.add_option("--gmi", o.gmi, "The mthreads-gmi to run")->type_name("PATH");
    app.add_flag("--demo", o.demo, "Synthetic GPUs instead of mthreads-gmi");
}

void apply(Options& o, const GpustatFlags& f, std::set<std::string>& explicit_keys) {
    GpustatStyle& s = o.cluster.text;
    if (f.show_all) s.show_cmd = s.show_user = s.show_pid = s.show_fan = s.show_codec = true;
    if (f.power || f.show_all) {
        const std::string which = f.power && !f.power->empty() ? *f.power : "draw,limit";
        for (const auto& word : text::split(which, ','))
            if (word == "draw") s.show_power_draw = true;
            else if (word == "limit") s.show_power_limit = true;
            else throw CLI::ValidationError("--show-power", "'" + sanitize(word) + "' is not draw or limit");
    }
    if (f.id) {
        auto ids = parse_index_list(*f.id);
        if (!ids) throw CLI::ValidationError("--id", "expected comma-separated GPU indices");
        o.filter.gpu_indices = *ids;
    }
    if (f.interval) {
        const std::string text = f.interval->empty() ? "1" : *f.interval;
        char* end = nullptr;
        const double seconds = std::strtod(text.c_str(), &end);
        if (end == text.c_str() || *end || !(seconds >= kMinIntervalSeconds && seconds <= kMaxIntervalSeconds))
            throw CLI::ValidationError("--interval",
                                       "expected seconds from 0.05 to 3600, got '" + sanitize(text) + "'");
        o.interval_seconds = seconds;
        explicit_keys.insert("interval");
    }
    if (f.gpuname_width) {
        char* end = nullptr;
        const long width = std::strtol(f.gpuname_width->c_str(), &end, 10);
        if (end == f.gpuname_width->c_str() || *end || width < 0 || width > 200)
            throw CLI::ValidationError("--gpuname-width", "expected a width from 0 to 200");
        s.name_width = static_cast<int>(width);
    }
    if (f.color && f.no_color) throw CLI::ValidationError("--color", "--color and --no-color exclude each other");
    if (f.color || f.no_color) o.color_forced = f.color;
    if (f.node_filter) o.cluster.node_filter = f.node_filter;
    if (f.user) o.filter.users.push_back(*f.user);
    o.gpustat = true;
    o.once = !o.json;
}

}  // namespace

bool invoked_as_gpustat(const std::string& argv0) {
    const auto slash = argv0.rfind('/');
    return (slash == std::string::npos ? argv0 : argv0.substr(slash + 1)) == "gpustat";
}

ParseResult parse_gpustat_command_line(const std::vector<std::string>& args) {
    ParseResult result;
    Options& o = result.options;
    o.cluster.text = GpustatStyle{};  // gpustat's defaults, not the cluster view's
    CLI::App app{"gpustat's flags on musatop: GPUs and their processes, one line each (docs/gpustat.md).",
                 "musatop gpustat"};
    app.set_version_flag("--version", version_text(), "Show the version and exit");
    GpustatFlags flags;
    declare(app, o, flags);
    // clustat spells its user filter with one dash.
    std::vector<std::string> reversed;
    for (auto it = args.rbegin(); it != args.rend(); ++it) reversed.push_back(*it == "-user" ? "--user" : *it);
    parse_and_apply(app, std::move(reversed), result, {"musatop gpustat", "gpustat"},
                    [&] { apply(o, flags, result.explicit_keys); });
    return result;
}

std::string gpustat_header(const Snapshot& view) {
    const std::time_t now = std::chrono::system_clock::to_time_t(view.sampled_at);
    std::tm local{};
    ::localtime_r(&now, &local);
    char when[64];
    std::strftime(when, sizeof when, "%a %b %e %H:%M:%S %Y", &local);
    return sanitize_or_na(view.host.hostname) + "  " + when + "  " + sanitize_or_na(view.driver_version);
}

}  // namespace musatop::cli
