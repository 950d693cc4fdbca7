// cpp-httplib's server with musatop's connection handling (connection.hpp): at
// most `max_connections` served at once (more get 503), bounded request heads,
// no bodies, idle keep-alive closed, and a prompt stop. With TLS files it is an
// httplib::SSLServer whose handshake also runs under those limits.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>

#include <httplib.h>

#include "connection.hpp"
#include "musatop/serve/web_config.hpp"
#include "musatop/util/result.hpp"

namespace musatop::serve {

inline constexpr std::size_t kMaxRequestsPerConnection = 1000;

// Creates the server; an error when the TLS certificate or key cannot be used.
Result<std::unique_ptr<httplib::Server>> make_http_server(const std::optional<TlsFiles>& tls,
                                                          const ConnectionLimits& limits, int stop_fd);

}  // namespace musatop::serve
