// Command-line flags: the Python tool's flags, unchanged, plus --demo, --gmi and
// --timeout. Parsing never touches GMI.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "musatop/collection/driver/driver_reader.hpp"
#include "musatop/model/gpu_free.hpp"
#include "musatop/model/health.hpp"
#include "musatop/model/view_filter.hpp"
#include "musatop/output/gpustat_text.hpp"
#include "musatop/output/query_csv.hpp"
#include "musatop/serve/process_metrics.hpp"
#include "musatop/util/version.hpp"

namespace CLI {
class App;
}

namespace musatop::cli {

inline constexpr double kMinIntervalSeconds = 0.05;
inline constexpr double kMaxIntervalSeconds = 3600;

// `musatop serve`: the node agent (docs/serve.md).
struct ServeOptions {
    std::string listen = "127.0.0.1:9499";
    // --process-metrics (memory per process) or --process-metrics=command (also the
    // command line, cut to 64 cells).
    serve::ProcessMetrics process_metrics = serve::ProcessMetrics::off;
    std::optional<std::string> web_config_file;
};

// `musatop record FILE` (docs/recording.md).
struct RecordOptions {
    std::string file;
    std::optional<double> duration_seconds;
    bool append = false;
    bool force = false;
    std::optional<std::uint64_t> max_bytes;
    int max_files = 5;
};

// `musatop replay FILE... (--json|--once) [--at TIME | --from TIME --to TIME]`.
struct ReplayOptions {
    std::vector<std::string> files;
    std::optional<std::string> at, from, to;
};

// The cluster view (docs/cluster.md): nodes directly, or a Prometheus.
struct ClusterOptions {
    std::optional<std::string> nodes;        // --nodes LIST (or MUSATOP_NODES)
    std::optional<std::string> nodes_file;   // --nodes-file FILE
    std::optional<std::string> node_filter;  // -n, --node
    // --once's GPU lines: --show-pid, --show-cmd (the command line, with its user),
    // --no-processes; `musatop gpustat` sets gpustat's own (cli/gpustat_command.hpp).
    GpustatStyle text = GpustatStyle::cluster();
    bool no_latency = false;                        // clustat's --no-latency
    std::optional<std::string> node_user;           // basic auth to the nodes
    std::optional<std::string> node_password_file;  // its password, from a file only
    std::optional<std::string> node_ca;             // CA file for https:// nodes
    std::optional<std::string> prometheus;          // --prometheus URL
    std::string prometheus_job = "musatop";
    std::optional<std::string> prometheus_user;
    std::optional<std::string> prometheus_password_file;
    std::optional<std::string> prometheus_bearer_token_file;
    std::optional<std::string> prometheus_ca;
    std::optional<std::string> prometheus_selector;         // extra matchers: cluster="a"
    std::optional<std::string> prometheus_header_file;      // Name: value lines
    std::optional<std::string> prometheus_node_label;       // instead of instance
    std::optional<std::string> prometheus_scrape_interval;  // where /api/v1/targets is missing
    FreeRule free;                                          // [cluster] free_below_percent
    std::optional<std::string> config_nodes;                // [cluster] nodes: below --nodes and MUSATOP_NODES
    bool active() const { return nodes || nodes_file || prometheus; }
};

// --query-gpu / --query-compute-apps (cli/query_command.hpp).
struct QueryOptions {
    query::QuerySpec spec;
    std::optional<double> loop_seconds;  // -l: repeat
};

struct Options {
    bool once = false;
    bool json = false;
    // --once or --json with -l/--loop or --count (gpustat: -i): a stream of samples
    // (cli/stream.hpp) rather than one. --interval alone is one sample, as in
    // Python musatop 0.2.1, so its scripts and cron jobs end.
    bool repeat = false;
    std::optional<std::int64_t> count;
    std::optional<double> loop_seconds;  // -l/--loop: the stream's interval
    std::optional<QueryOptions> query;
    // `musatop gpustat`: gpustat's layout and --json document (cli/gpustat_command.hpp).
    bool gpustat = false;
    bool gpustat_no_header = false;
    std::optional<bool> color_forced;  // gpustat's --color / --no-color
    bool demo = false;
    bool reveal_hidden_processes = false;  // [privacy]: serve and record under hidepid
    bool ascii = false;
    bool no_color = false;
    double interval_seconds = 1.0;
    double timeout_seconds = 3.0;
    std::string gmi = "mthreads-gmi";
    driver::DriverOptions driver;  // [driver] root and process_util
    ViewFilter filter;
    std::optional<std::string> record_file;  // `--record FILE`: the screen records while it shows
    std::optional<ServeOptions> serve;       // set for `musatop serve`
    std::optional<RecordOptions> record;     // set for `musatop record`
    std::optional<ReplayOptions> replay;     // set for `musatop replay`
    ClusterOptions cluster;
    // Defaults the config file may change (docs/config.md); the screen's c and h.
    bool compact = false;
    bool trends = true;
    bool mouse = true;
    HealthThresholds health;
    // Where settings come from: --config FILE instead of the usual files, or none.
    std::optional<std::string> config_file;
    bool no_config = false;
    // --write-config [FILE]: write the defaults ("" = the user config path) and exit.
    std::optional<std::string> write_config;
    bool force = false;
};

struct ParseResult {
    // Set when the program should exit right away (help, version, usage error).
    std::optional<int> exit_code;
    std::string stdout_text;
    std::string stderr_text;
    Options options;
    // Setting keys (settings.hpp) the command line gave explicitly: no other
    // source may change them.
    std::set<std::string> explicit_keys;
};

ParseResult parse_command_line(const std::vector<std::string>& args);

// How a command calls itself in a usage error and names its --help.
struct CommandNames {
    std::string command;  // "musatop", "musatop gpustat"
    std::string help;     // "musatop", "gpustat"
};

// Parses `reversed` (CLI11's order), then `apply`; help and version go to stdout,
// a parse or usage error to stderr with exit status 2: one handling for every
// command line musatop takes.
void parse_and_apply(CLI::App& app, std::vector<std::string> reversed, ParseResult& result, const CommandNames& names,
                     const std::function<void()>& apply);

// The cluster view's flags (cli/cluster_flags.cpp).
void declare_cluster(CLI::App& app, ClusterOptions& c);

// "0,1, 3" -> {0,1,3}; any empty, negative or non-numeric item is an error.
std::optional<std::set<std::int64_t>> parse_index_list(std::string_view text);

// A number as Python's float() reads it (exponents, inf and nan included); range
// checks are the caller's.
std::optional<double> parse_seconds(std::string_view text);

// "musatop 0.3.0 (static build, x86_64)": which binary this is.
std::string version_text();

}  // namespace musatop::cli
