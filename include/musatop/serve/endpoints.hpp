// What each endpoint answers, from a frame: pure, so the HTTP adapter only routes.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "musatop/model/view_filter.hpp"
#include "musatop/net/http_server.hpp"
#include "musatop/sampler/sampler.hpp"
#include "musatop/serve/metrics.hpp"

namespace musatop::serve {

using Reply = net::Response;

struct EndpointSettings {
    ViewFilter filter;
    Seconds interval{1.0};
    ProcessMetrics process_metrics = ProcessMetrics::off;
};

// Renders each document once per frame (and staleness state), however many
// clients ask: 50 scrapers cost one rendering a second, not fifty.
class Endpoints {
public:
    explicit Endpoints(EndpointSettings settings);

    Reply metrics(const Frame& frame, WallTime now);
    // With an ETag of the frame: a client that has it gets 304 and no body.
    Reply snapshot(const Frame& frame);
    Reply health(const Frame& frame) const;
    Reply index(const Frame& frame) const;

private:
    struct Cached {
        std::uint64_t revision = 0;
        bool values_hidden = false;
        std::shared_ptr<const std::string> text;
    };
    const Snapshot& view_of(const Frame& frame);

    EndpointSettings settings_;
    std::mutex mutex_;
    std::uint64_t view_revision_ = 0;
    Snapshot view_;
    Cached metrics_;
    Cached json_;
    std::string etag_prefix_;  // differs between agent runs, whose revisions restart at 1
};

}  // namespace musatop::serve
