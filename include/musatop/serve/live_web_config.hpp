// The web config as it is now. exporter-toolkit re-reads its file for every
// request and handshake; musatop looks at the file (and the certificate and key it
// names) at most every quarter second and on SIGHUP, and reads it again when one
// of them changed. A new file that cannot be used keeps the previous one, and the
// log says why, once per change. A revoked password stops working, a renewed
// certificate is used from the next connection on. Turning TLS on or off needs a
// restart (the clients' URLs change with it), and says so.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "musatop/net/tls.hpp"
#include "musatop/serve/basic_auth.hpp"
#include "musatop/serve/web_config.hpp"
#include "musatop/util/clock.hpp"
#include "musatop/util/result.hpp"

namespace musatop::serve {

struct WebState {
    std::shared_ptr<BasicAuth> auth;
    std::shared_ptr<net::TlsContext> tls;  // null: plain HTTP
};

class LiveWebConfig {
public:
    using Log = std::function<void(const std::string&)>;
    // The config as loaded at start (`path` none: no file, nothing to watch). An
    // error is the first TLS set-up's.
    static Result<std::unique_ptr<LiveWebConfig>> start(std::optional<std::string> path, WebConfig initial, Log log);

    // The state to use now; looks at the files when the last look is old enough.
    std::shared_ptr<const WebState> current();
    // Looks at the files now (SIGHUP).
    void reload();

private:
    LiveWebConfig(std::optional<std::string> path, WebConfig config, std::shared_ptr<const WebState> state, Log log);
    std::vector<std::string> stamps() const;  // what identifies each watched file's content
    void look();                              // under mutex_

    std::optional<std::string> path_;
    WebConfig config_;
    Log log_;
    std::mutex mutex_;
    std::shared_ptr<const WebState> state_;
    std::vector<std::string> seen_;  // stamps of the last look (used or refused)
    MonoTime looked_at_;
};

inline constexpr std::chrono::milliseconds kWebConfigLook{250};

}  // namespace musatop::serve
