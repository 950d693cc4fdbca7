#include "musatop/cli/screen_settings.hpp"

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <memory>

#include "musatop/cli/state_file.hpp"
#include "musatop/collection/procfs/process_enricher.hpp"
#include "musatop/model/view_filter.hpp"
#include "musatop/replay/recorder.hpp"
#include "musatop/util/version.hpp"

namespace musatop::cli {
namespace {

std::string login_name() {
    for (const char* variable : {"LOGNAME", "USER", "LNAME", "USERNAME"})
        if (const char* value = std::getenv(variable); value && *value) return value;
    return procfs::username_for_uid(::getuid());
}

// `--record FILE`: the recorder opens with the first snapshot (its host names the
// header); a size limit (SIGXFSZ) then stops the recording, not the screen.
std::function<std::optional<std::string>(const Snapshot&)> screen_recorder(const Options& options) {
    auto recorder = std::make_shared<std::unique_ptr<replay::Recorder>>();
    return [recorder, file = *options.record_file, interval = options.interval_seconds,
            filter = options.filter](const Snapshot& snapshot) -> std::optional<std::string> {
        if (!*recorder) {
            ::signal(SIGXFSZ, SIG_IGN);
            replay::Header header{kVersion, snapshot.host.hostname, interval, snapshot.sampled_at};
            auto opened = replay::Recorder::open({file, replay::OpenMode::create, std::nullopt, 5}, header);
            if (!opened.ok()) return opened.error();
            *recorder = std::move(opened.value());
        }
        // The command line's filters choose what is kept; the screen's own are for looking.
        if (auto written = (*recorder)->append(apply_view(snapshot, filter)); !written.ok()) return written.error();
        return std::nullopt;
    };
}

}  // namespace

tui::TuiSettings screen_settings(const Options& options, const std::optional<std::string>& state_path) {
    tui::TuiSettings settings;
    settings.interval = to_duration(Seconds(options.interval_seconds));
    settings.filter = options.filter;
    settings.ascii = options.ascii;
    settings.color = !options.no_color;  // NO_COLOR arrives through the settings
    settings.compact = options.compact;
    settings.trends = options.trends;
    settings.mouse = options.mouse;
    if (state_path)
        settings.on_choices = [path = *state_path](const tui::ScreenChoices& choices) {
            return write_state(path, choices);
        };
    settings.login_name = login_name();
    if (options.record_file) {
        settings.on_snapshot = screen_recorder(options);
        settings.badge = "REC " + *options.record_file;
    }
    return settings;
}

}  // namespace musatop::cli
