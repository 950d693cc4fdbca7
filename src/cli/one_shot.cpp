#include "musatop/cli/one_shot.hpp"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <csignal>
#include <cstdlib>
#include <string_view>

#include "musatop/cli/gpustat_command.hpp"
#include "musatop/model/view_filter.hpp"
#include "musatop/output/gpustat_text.hpp"
#include "musatop/output/sanitize.hpp"
#include "musatop/output/json_output.hpp"
#include "musatop/output/text_output.hpp"
#include "musatop/util/cancel.hpp"
#include "musatop/util/stdout_writer.hpp"
#include "musatop/util/stop_signals.hpp"

namespace musatop::cli {
namespace {}  // namespace

Paint text_paint(const Options& options) {
    if (options.color_forced) return Paint{*options.color_forced};
    const char* term = std::getenv("TERM");
    return Paint{::isatty(STDOUT_FILENO) && !options.no_color && !(term && std::string_view(term) == "dumb")};
}

StreamSettings stream_settings(const Options& options) {
    StreamSettings settings;
    settings.interval = Seconds(options.loop_seconds.value_or(options.interval_seconds));
    settings.count = options.count;
    settings.framing = options.json ? Framing::lines : ::isatty(STDOUT_FILENO) != 0 ? Framing::redraw : Framing::blocks;
    return settings;
}

// One sample as the mode prints it: musatop's text or JSON (compact in a stream), or gpustat's.
std::string rendered(const Options& options, const Snapshot& view) {
    if (options.gpustat) {
        if (options.json) return gpustat_json(view);
        GpustatStyle style = options.cluster.text;
        style.paint = text_paint(options);
        std::string text = options.gpustat_no_header ? "" : style.paint(Ink::bold, gpustat_header(view)) + "\n";
        for (const auto& line : gpustat_lines(view, style)) text += line + "\n";
        for (const auto& error : view.errors) text += style.paint(Ink::error, "ERROR: " + sanitize(error)) + "\n";
        return text;
    }
    if (options.json) return options.repeat ? render_json_compact(view) + "\n" : render_json(view);
    return render_text(view, text_paint(options));
}

int run_one_shot(const Options& options, Source& source) {
    if (options.repeat)
        return run_stream(stream_settings(options), [&](const CancelToken& cancel) {
            const Snapshot snapshot = source.collect(cancel);
            return StreamSample{rendered(options, apply_view(snapshot, options.filter)), snapshot.failed()};
        });
    // A stop signal during collection (`timeout 5 musatop --json`) makes the command
    // runner kill and reap GMI at once; then exit 128 + the signal, no child left.
    const Canceller canceller;
    const StopSignals stop(&canceller);
    ::signal(SIGPIPE, SIG_IGN);

    const Snapshot snapshot = source.collect(canceller.token());
    if (stop.received()) return 128 + stop.received();
    const Snapshot view = apply_view(snapshot, options.filter);
    if (print_stdout(rendered(options, view)) != 0) return 1;
    return snapshot.failed() ? 1 : 0;
}

}  // namespace musatop::cli
