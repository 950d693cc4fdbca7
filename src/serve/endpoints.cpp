#include "musatop/serve/endpoints.hpp"

#include <unistd.h>

#include "musatop/net/api.hpp"
#include "musatop/output/json_output.hpp"
#include "musatop/output/sanitize.hpp"
#include "musatop/util/version.hpp"

namespace musatop::serve {
namespace {

std::string html_escape(std::string_view text) {
    std::string out;
    for (char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
    return out;
}

Reply text_reply(int status, std::string body, std::string_view type = net::kTextType) {
    Reply reply = net::text_response(status, std::move(body));
    reply.content_type = type;
    return reply;
}

// A one-line reason: the first error of the stale source.
std::string first_error(const Snapshot& s, std::string_view source) {
    for (const auto& e : s.errors)
        if (e.rfind(std::string(source) + ":", 0) == 0) return sanitize(e);
    return std::string(source) + ": stale";
}

}  // namespace

Endpoints::Endpoints(EndpointSettings settings) : settings_(std::move(settings)) {
    // The agent's start time in nanoseconds and its PID: an ETag from a previous
    // run never matches a frame of this one.
    const auto started = wall_now().time_since_epoch().count();
    etag_prefix_ = std::to_string(started) + "-" + std::to_string(::getpid()) + "-";
}

const Snapshot& Endpoints::view_of(const Frame& frame) {
    if (view_revision_ != frame.revision) {
        view_ = apply_view(*frame.snapshot, settings_.filter);
        view_revision_ = frame.revision;
    }
    return view_;
}

Reply Endpoints::metrics(const Frame& frame, WallTime now) {
    std::lock_guard lock(mutex_);
    const bool hidden = frame.snapshot && devices_too_stale(*frame.snapshot, settings_.interval, now);
    if (frame.revision == 0 || metrics_.revision != frame.revision || metrics_.values_hidden != hidden) {
        MetricsInput input;
        input.snapshot = frame.snapshot ? &view_of(frame) : nullptr;
        input.counts = frame.counts;
        input.interval = settings_.interval;
        input.now = now;
        input.processes = settings_.process_metrics;
        metrics_ = Cached{frame.revision, hidden, std::make_shared<const std::string>(render_metrics(input))};
    }
    Reply reply;
    reply.content_type = net::kMetricsType;
    reply.body = metrics_.text;
    return reply;
}

Reply Endpoints::snapshot(const Frame& frame) {
    if (!frame.snapshot) return text_reply(503, "no sample yet\n");
    std::lock_guard lock(mutex_);
    if (json_.revision != frame.revision)
        json_ = Cached{frame.revision, false, std::make_shared<const std::string>(render_json(view_of(frame)))};
    Reply reply;
    reply.content_type = net::kJsonType;
    reply.body = json_.text;
    reply.etag = "\"" + etag_prefix_ + std::to_string(frame.revision) + "\"";
    return reply;
}

Reply Endpoints::health(const Frame& frame) const {
    if (!frame.snapshot) return text_reply(503, "no sample yet\n");
    const Snapshot& s = *frame.snapshot;
    if (s.devices_stale) return text_reply(503, first_error(s, "devices") + "\n");
    if (s.processes_stale) return text_reply(503, first_error(s, "processes") + "\n");
    return text_reply(200, "ok\n");
}

Reply Endpoints::index(const Frame& frame) const {
    const std::string host =
        frame.snapshot && frame.snapshot->host.hostname ? sanitize(*frame.snapshot->host.hostname) : "unknown host";
    std::string page = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>musatop serve on " +
                       html_escape(host) + "</title></head>\n<body><h1>musatop " + kVersion +
                       "</h1>\n<p>Host: " + html_escape(host) + "</p>\n<ul>\n";
    for (const auto endpoint : {net::kMetricsPath, net::kSnapshotPath, net::kHealthPath})
        page.append("<li><a href=\"").append(endpoint).append("\">").append(endpoint).append("</a></li>\n");
    page += "</ul>\n<p>Read-only: nothing here changes a setting or signals a process.</p>\n</body></html>\n";
    return text_reply(200, std::move(page), net::kHtmlType);
}

}  // namespace musatop::serve
