#include "musatop/cli/recording_commands.hpp"
#include "musatop/util/fd_limit.hpp"
#include "musatop/util/stdout_writer.hpp"

#include <signal.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <iostream>

#include "musatop/cli/one_shot.hpp"
#include "musatop/cli/screen_settings.hpp"
#include "musatop/model/view_filter.hpp"
#include "musatop/output/format.hpp"
#include "musatop/output/json_output.hpp"
#include "musatop/output/text_output.hpp"
#include "musatop/replay/recorder.hpp"
#include "musatop/replay/replay_player.hpp"
#include "musatop/replay/replay_time.hpp"
#include "musatop/util/cancel.hpp"
#include "musatop/tui/tui_app.hpp"
#include "musatop/util/version.hpp"
#include "musatop/output/sanitize.hpp"
#include "musatop/output/source_log.hpp"
#include "musatop/sampler/round_loop.hpp"
#include "musatop/util/stop_signals.hpp"

namespace musatop::cli {
namespace {

replay::OpenMode open_mode(const RecordOptions& o) {
    if (o.append) return replay::OpenMode::append;
    if (o.force) return replay::OpenMode::overwrite;
    return replay::OpenMode::create;
}

}  // namespace

int run_record(const Options& options, Source& source) {
    const RecordOptions& o = *options.record;
    replay::Header header;
    header.musatop_version = kVersion;
    header.interval_seconds = options.interval_seconds;
    header.started_at = wall_now();
    ::signal(SIGXFSZ, SIG_IGN);  // a file size limit is a write error with a message, not a silent death
    std::unique_ptr<replay::Recorder> recorder;
    SourceStateLog sources;  // a failing GMI is said once, not recorded silently
    int status = 0;
    const auto fail = [&](const std::string& error) {
        std::cerr << "musatop record: " << sanitize(error) << "\n";
        status = 1;
        return false;
    };
    RoundLoop loop(to_duration(Seconds(options.interval_seconds)), [&](MonoTime, CancelToken cancel) {
        Snapshot snapshot = source.collect(cancel);
        if (cancel.requested()) return false;  // a round cut short by a stop signal is not recorded
        if (!recorder) {                       // the first round names the host for the header
            header.hostname = snapshot.host.hostname;
            auto opened = replay::Recorder::open({o.file, open_mode(o), o.max_bytes, o.max_files}, header);
            if (!opened.ok()) return fail(opened.error());
            recorder = std::move(opened.value());
            if (!recorder->note().empty()) std::cerr << "musatop record: " << sanitize(recorder->note()) << "\n";
            std::cerr << "musatop record: recording to " << sanitize(o.file) << " every " << options.interval_seconds
                      << " s (source " << source.describe() << ")\n";
        }
        for (const auto& line : sources.changes(snapshot)) std::cerr << "musatop record: " << line << "\n";
        // The command line's filters (--gpu, --pid, --user) choose what is kept.
        if (auto written = recorder->append(apply_view(snapshot, options.filter)); !written.ok())
            return fail(written.error());
        return true;
    });
    // A stop signal (SIGQUIT too) kills a hung GMI call at once and ends the loop;
    // the file is closed whole and the exit is 0.
    const StopSignals stop(&loop.canceller());
    loop.run(o.duration_seconds ? std::optional(to_duration(Seconds(*o.duration_seconds))) : std::nullopt);
    return status;
}

namespace {

// `--from/--to`: every frame of the window, one line each, decoded one at a time.
// The window runs, in the order written, from the first frame at or after `from`
// until one is past `to`: frames written after the clock stepped back stay in it
// (`--from +0s` dropped them when each frame was judged by its own time).
int print_window(replay::RecordingIndex& frames, WallTime from, WallTime to, const ViewFilter& filter) {
    std::size_t first = 0;
    while (first < frames.size() && frames.time(first) < from) ++first;
    for (std::size_t i = first; i < frames.size() && frames.time(i) <= to; ++i) {
        auto snapshot = frames.load(i);
        if (!snapshot.ok()) {
            std::cerr << "musatop replay: " << sanitize(snapshot.error()) << "\n";
            return 1;
        }
        switch (write_stdout(render_json_compact(apply_view(snapshot.value(), filter)) + "\n")) {
            case Written::ok: break;
            case Written::reader_gone: return 0;  // `| head` ends the output, not an error
            case Written::failed:
            case Written::stopped: return 1;
        }
    }
    return 0;
}

}  // namespace

int run_replay(const Options& options) {
    ::signal(SIGPIPE, SIG_IGN);  // `| head` is not a failure
    const ReplayOptions& o = *options.replay;
    raise_open_file_limit();  // a descriptor per part: a set of 2,000 parts is still one recording
    auto recording = replay::read_recordings(o.files);
    if (!recording.ok()) {
        std::cerr << "musatop replay: " << sanitize(recording.error()) << "\n";
        return 1;
    }
    for (const auto& note : recording->recording().notes()) std::cerr << "musatop replay: " << sanitize(note) << "\n";
    replay::RecordingIndex& frames = recording.value();
    const WallTime first = frames.first_time();
    const WallTime last = frames.last_time();
    // Times are given to the second while the first frame is sampled at some
    // fraction of one: the recording starts, for these flags, at its first whole second.
    const WallTime start = std::chrono::floor<std::chrono::seconds>(first);
    const auto outside = [&](const std::string& flag, WallTime t) {
        std::cerr << "musatop: error: argument " << flag << ": " << format_iso8601(t) << " is outside the recording ("
                  << format_iso8601(first) << " to " << format_iso8601(last) << ")\n";
    };
    const auto time_of = [&](const std::string& flag, const std::string& text) -> std::optional<WallTime> {
        const auto t = replay::parse_replay_time(text, frames.time(0));
        if (!t)
            std::cerr << "musatop: error: argument " << flag << ": '" << sanitize(text)
                      << "' is not a time (2026-12-02T03:15:00Z, local 2026-12-02T03:15:00, or +90s, +5m, +1h30m)\n";
        return t;
    };
    if (o.from || o.to) {
        // A window reaching past either end is cut to the recording, as `head` is
        // not an error on a short file; one that misses the recording entirely is.
        const auto from = o.from ? time_of("--from", *o.from) : std::optional(first);
        const auto to = o.to ? time_of("--to", *o.to) : std::optional(last);
        if (!from || !to) return 2;
        if (*from > last) return outside("--from", *from), 2;
        if (*to < start) return outside("--to", *to), 2;
        return print_window(frames, *from, *to, options.filter);
    }
    std::size_t index = frames.size() - 1;
    if (o.at) {
        const auto at = time_of("--at", *o.at);
        if (!at) return 2;
        if (*at < start || *at > last + std::chrono::seconds(1)) return outside("--at", *at), 2;
        // The snapshot in force at that time: the last one sampled at or before it.
        index = frames.in_force_at(*at).value_or(0);
    }
    if (!options.json && !options.once && ::isatty(STDIN_FILENO) && ::isatty(STDOUT_FILENO)) {
        replay::ReplayPlayer player(std::move(frames), options.filter.gpu_indices);
        player.start();
        // A replay has no choices of its own to remember.
        tui::TuiSettings settings = screen_settings(options, std::nullopt);
        if (o.at) player.control(replay::ReplayCommand::jump, *o.at);
        return tui::run_screen(settings, player, &player);
    }
    auto snapshot = frames.load(index);
    if (!snapshot.ok()) {
        std::cerr << "musatop replay: " << sanitize(snapshot.error()) << "\n";
        return 1;
    }
    const Snapshot view = apply_view(snapshot.value(), options.filter);
    return print_stdout(options.json ? render_json(view) : render_text(view, text_paint(options)));
}

}  // namespace musatop::cli
