// `musatop serve`: the node agent. The sampler runs in the background; every
// endpoint answers from the newest frame and never runs GMI or waits for a round.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "musatop/model/source.hpp"
#include "musatop/model/view_filter.hpp"
#include "musatop/serve/listen_address.hpp"
#include "musatop/serve/metrics.hpp"
#include "musatop/serve/web_config.hpp"

namespace musatop::serve {

struct ServeSettings {
    ListenAddress listen;
    std::chrono::steady_clock::duration interval = std::chrono::seconds(1);
    ViewFilter filter;  // the same filters as `musatop --json`
    ProcessMetrics process_metrics = ProcessMetrics::off;
    WebConfig web;
    std::optional<std::string> web_config_file;  // watched and read again when it changes
};

// Runs until SIGTERM, SIGINT or SIGQUIT (exit 0); SIGHUP reads the web config
// again. 1 when it cannot listen, 2 for a TLS setup that cannot be used.
int run_serve(const ServeSettings& settings, std::unique_ptr<Source> source);

}  // namespace musatop::serve
