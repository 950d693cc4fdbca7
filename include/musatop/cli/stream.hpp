// Repeated output for scripts and terminals: `--json --interval S` writes one
// compact document per line (JSON Lines), `--once --interval S` redraws the text on
// a terminal (clear and redraw, as `gpustat -i` and `watch` do) or writes one block
// per sample, separated by a blank line, into a pipe. Samples start S apart, each
// is flushed at once; --count N stops after N. Ctrl-C ends a stream with status 0
// (its normal end), SIGTERM, SIGHUP and SIGQUIT with 128 + the signal; a reader
// that goes away (`| head`) ends it with 0; after --count N the status is the last
// sample's (1 when it failed, as for one sample).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "musatop/util/cancel.hpp"
#include "musatop/util/clock.hpp"

namespace musatop::cli {

// How samples follow each other: lines, blocks with a blank line between, or a
// terminal cleared before each.
enum class Framing { lines, blocks, redraw };

struct StreamSettings {
    Seconds interval{1.0};
    std::optional<std::int64_t> count;  // samples; none: until stopped
    Framing framing = Framing::lines;
};

// One sample's output (a line of JSON with its newline, or a text block) and
// whether it was a failed sample (stale data, errors).
struct StreamSample {
    std::string text;
    bool failed = false;
};

int run_stream(const StreamSettings& settings, const std::function<StreamSample(const CancelToken&)>& sample);

}  // namespace musatop::cli
