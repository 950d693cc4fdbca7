// The interactive screen: starts the sampler, runs the ncurses loop, restores the
// terminal on every way out.
#pragma once

#include <memory>

#include "musatop/cli/options.hpp"
#include "musatop/collection/collector.hpp"

namespace musatop::tui {

int run_tui(const cli::Options& options, std::unique_ptr<Collector> collector);

}  // namespace musatop::tui
