// Untrusted bytes from the network: a request head as the agent reads it, the
// router's answer to it, its Authorization header, and --listen / URL text.
#include <cstddef>
#include <cstdint>
#include <string>

#include "musatop/net/base64.hpp"
#include "musatop/net/endpoint.hpp"
#include "musatop/net/http_request.hpp"
#include "musatop/net/http_server.hpp"
#include "musatop/serve/listen_address.hpp"

namespace {

const musatop::net::Router& router() {
    static const musatop::net::Router r = [] {
        musatop::net::Router made;
        made.get("/metrics", [](const musatop::net::RequestHead&) { return musatop::net::text_response(200, "m\n"); });
        return made;
    }();
    return r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const auto end = musatop::net::find_head_end(text);
    const std::string head = end == std::string::npos ? text : text.substr(0, end);
    (void)musatop::net::head_has_body(head);
    if (const auto request = musatop::net::parse_request_head(head)) {
        const auto response = router().route(*request);
        if (response.status != 200 && response.status != 404 && response.status != 405) __builtin_trap();
        if (response.status == 200 && request->path != "/metrics") __builtin_trap();
        (void)request->accepts_gzip();
        (void)request->keep_alive();
    }
    if (const auto credentials = musatop::net::parse_basic_authorization(text)) {
        if (credentials->user.size() + credentials->password.size() + 1 > text.size()) __builtin_trap();
    }
    (void)musatop::serve::parse_listen_address(text);
    (void)musatop::net::parse_url(text, "--prometheus");
    return 0;
}
