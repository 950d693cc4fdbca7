#include "musatop/tui/tui_app.hpp"

#include "musatop/cli/one_shot.hpp"

namespace musatop::tui {

int run_tui(const cli::Options& options, std::unique_ptr<Collector> collector) {
    return cli::run_one_shot(options, *collector);
}

}  // namespace musatop::tui
