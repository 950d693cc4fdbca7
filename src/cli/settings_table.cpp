// The table of settings (settings.hpp): one row per key.
#include <cmath>

#include "musatop/cli/settings.hpp"

namespace musatop::cli {
namespace {

bool as_bool(const SettingValue& v) { return std::get<bool>(v); }
double as_number(const SettingValue& v) { return std::get<double>(v); }
const std::string& as_text(const SettingValue& v) { return std::get<std::string>(v); }

void set_serve(Options& o, const std::function<void(ServeOptions&)>& change) {
    if (o.serve) change(*o.serve);  // serve keys matter to the agent only
}

using K = SettingKind;

// Rows without a flag leave the flag's columns (at the end) out.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

constexpr SettingKey kKeys[] = {
    {"interval", "--interval", K::number, kMinIntervalSeconds, kMaxIntervalSeconds, "",
     "Sampling interval in seconds, 0.05 to 3600.", "1.0",
     [](Options& o, const SettingValue& v) { o.interval_seconds = as_number(v); }, "SECONDS"},
    {"timeout", "--timeout", K::number, 0.1, 60, "", "Time limit of each mthreads-gmi call in seconds, 0.1 to 60.",
     "3.0", [](Options& o, const SettingValue& v) { o.timeout_seconds = as_number(v); }, "SECONDS"},
    {"gmi", "--gmi", K::text, 0, 0, "", "The mthreads-gmi to run: a name looked up in PATH, or a path.",
     "\"mthreads-gmi\"", [](Options& o, const SettingValue& v) { o.gmi = as_text(v); }, "PATH"},
    {"sort", "--sort", K::choice, 0, 0, "gpu_memory|gpu_util|cpu|rss|pid|user|gpu", "Sort processes by this field.",
     "\"gpu_memory\"", [](Options& o, const SettingValue& v) { o.filter.sort = *sort_field_from_string(as_text(v)); },
     "FIELD"},
    {"reverse", "--reverse", K::boolean, 0, 0, "", "Reverse the sort direction.", "false",
     [](Options& o, const SettingValue& v) { o.filter.reverse = as_bool(v); }},
    {"compact", "", K::boolean, 0, 0, "", "Compact process columns (the screen's c).", "false",
     [](Options& o, const SettingValue& v) { o.compact = as_bool(v); }},
    {"trends", "", K::boolean, 0, 0, "", "Show the 5-minute trends (the screen's h).", "true",
     [](Options& o, const SettingValue& v) { o.trends = as_bool(v); }},
    {"ascii", "--ascii", K::boolean, 0, 0, "", "Plain ASCII bars, trends and borders.", "false",
     [](Options& o, const SettingValue& v) { o.ascii = as_bool(v); }, "",
     "Use ASCII bars, trends and borders (TUI only)"},
    {"color", "--no-color", K::boolean, 0, 0, "", "Colours on the screen (NO_COLOR in the environment turns them off).",
     "true", [](Options& o, const SettingValue& v) { o.no_color = !as_bool(v); }, "",
     "Disable colours (TUI only; NO_COLOR also works)"},
    {"mouse", "--no-mouse", K::boolean, 0, 0, "",
     "Mouse clicks and wheel on the screen (Shift keeps the terminal's selection).", "true",
     [](Options& o, const SettingValue& v) { o.mouse = as_bool(v); }, "",
     "Ignore the mouse on the screen (the terminal selects text as usual)"},
    {"process_util", "--process-util", K::boolean, 0, 0, "",
     "Per-process GPU utilisation from the driver's proc_util (its first read starts the firmware's performance "
     "stream, so it is asked for, never on by default).",
     "false", [](Options& o, const SettingValue& v) { o.driver.process_util = as_bool(v); }, "",
     "Read the driver's per-process GPU utilisation (proc_util; starts the firmware's performance stream)"},
    {"serve.listen", "--listen", K::text, 0, 0, "",
     "musatop serve: the address to listen on, HOST:PORT, [IPv6]:PORT or :PORT for every address.",
     "\"127.0.0.1:9499\"",
     [](Options& o, const SettingValue& v) { set_serve(o, [&](ServeOptions& s) { s.listen = as_text(v); }); },
     "ADDR:PORT"},
    {"serve.process_metrics", "--process-metrics", K::choice, 0, 0, "off|memory|command",
     "musatop serve: per-process series (memory adds GPU memory, command also the command line).", "\"off\"",
     [](Options& o, const SettingValue& v) {
         set_serve(o, [&](ServeOptions& s) {
             const auto& text = as_text(v);
             s.process_metrics = text == "off"      ? serve::ProcessMetrics::off
                                 : text == "memory" ? serve::ProcessMetrics::memory
                                                    : serve::ProcessMetrics::with_command;
         });
     },
     "[command]", "Also export per-process GPU memory; =command adds the command line (=off: none)", "memory"},
    {"serve.web_config_file", "--web-config-file", K::text, 0, 0, "",
     "musatop serve: TLS and basic-auth file in the exporter-toolkit format (\"\" for none).", "\"\"",
     [](Options& o, const SettingValue& v) {
         set_serve(o, [&](ServeOptions& s) {
             s.web_config_file = as_text(v).empty() ? std::nullopt : std::optional<std::string>(as_text(v));
         });
     },
     "FILE", "TLS and basic-auth users, in the exporter-toolkit format of node_exporter"},
    {"privacy.reveal_hidden_processes", "--reveal-hidden-processes", K::boolean, 0, 0, "",
     "serve and record: where /proc hides other users' processes (hidepid), show their users and command lines "
     "anyway.",
     "false", [](Options& o, const SettingValue& v) { o.reveal_hidden_processes = as_bool(v); }},
    {"driver.root", "", K::text, 0, 0, "",
     "Where the MUSA driver's /proc/driver/musa and /sys are read: \"/\" (a chroot or a test tree otherwise).", "\"/\"",
     [](Options& o, const SettingValue& v) { o.driver.root = as_text(v).empty() ? "/" : as_text(v); }},
    {"cluster.nodes", "", K::text, 0, 0, "",
     "The cluster view's nodes, as --nodes takes them (\"\" for none); --nodes and MUSATOP_NODES win.", "\"\"",
     [](Options& o, const SettingValue& v) {
         o.cluster.config_nodes = as_text(v).empty() ? std::nullopt : std::optional<std::string>(as_text(v));
     }},
    {"cluster.free_below_percent", "", K::number, 0.1, 100, "",
     "The cluster view: a GPU with no process and utilisation under this percentage is free.", "5.0",
     [](Options& o, const SettingValue& v) { o.cluster.free.below_percent = as_number(v); }},
    {"health.power_at_limit_percent", "", K::number, 50, 100, "",
     "Health: power draw at or above this percentage of the limit is a finding.", "98.0",
     [](Options& o, const SettingValue& v) { o.health.power_at_limit_ratio = as_number(v) / 100; }},
    {"health.throttle_busy_percent", "", K::number, 0, 100, "",
     "Health: throttling is inferred only at or above this utilisation.", "80.0",
     [](Options& o, const SettingValue& v) { o.health.throttle_busy_percent = as_number(v); }},
    {"health.throttle_clock_percent", "", K::number, 1, 100, "",
     "Health: ... when the graphics clock is below this percentage of its maximum.", "50.0",
     [](Options& o, const SettingValue& v) { o.health.throttle_clock_ratio = as_number(v) / 100; }},
    {"health.generation_busy_percent", "", K::number, 0, 100, "",
     "Health: a PCIe generation below its maximum counts at or above this utilisation.", "50.0",
     [](Options& o, const SettingValue& v) { o.health.generation_busy_percent = as_number(v); }},
    {"health.idle_memory_mib", "", K::number, 1, 1e9, "",
     "Health: memory held while idle counts from this many MiB in use at 0% utilisation ...", "1024.0",
     [](Options& o, const SettingValue& v) {
         o.health.idle_memory_bytes = static_cast<std::int64_t>(std::llround(as_number(v) * 1024 * 1024));
     }},
    {"health.event_window_minutes", "", K::number, 1, 10080, "",
     "Health: warning and fatal driver events (event_report) this many minutes old or newer are findings.", "60.0",
     [](Options& o, const SettingValue& v) { o.health.event_window = Seconds(as_number(v) * 60); }},
    {"health.idle_minutes", "", K::number, 0.1, 1440, "", "Health: ... for this many minutes.", "5.0",
     [](Options& o, const SettingValue& v) { o.health.idle_held_for = Seconds(as_number(v) * 60); }},
};

}  // namespace

std::span<const SettingKey> setting_keys() { return kKeys; }

std::string environment_name(const SettingKey& key) {
    std::string name = "MUSATOP_";
    for (char c : key.key) name += c == '.' ? '_' : static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c);
    return name;
}

}  // namespace musatop::cli
