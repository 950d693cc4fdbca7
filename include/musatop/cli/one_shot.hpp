// `--once`, `--json` and the non-terminal default: one synchronous sample, printed;
// with --interval or --count, a stream of them (cli/stream.hpp).
#pragma once

#include "musatop/cli/options.hpp"
#include "musatop/cli/stream.hpp"
#include "musatop/model/source.hpp"
#include "musatop/output/paint.hpp"

namespace musatop::cli {

// Exit code: 0 clean, 1 any error or stale source, 130 interrupted. A closed stdout
// (`| head`) counts as success.
int run_one_shot(const Options& options, Source& source);

// Colour for the text outputs: on a terminal, unless --no-color, NO_COLOR, the
// config's color = false or TERM=dumb say otherwise; never into a pipe or a file.
Paint text_paint(const Options& options);

// The stream of --once/--json --interval: lines for JSON, a redrawn terminal or
// blocks into a pipe for text.
StreamSettings stream_settings(const Options& options);

}  // namespace musatop::cli
