#include "musatop/serve/live_web_config.hpp"

#include <sys/stat.h>

namespace musatop::serve {
namespace {

// Device, inode, size and both times to the nanosecond: an editor's rename, a
// certbot renewal in place and a `cp` over the file all change one of them.
std::string stamp(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return path + ": missing";
    return path + ":" + std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino) + ":" + std::to_string(st.st_size) +
           ":" + std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec) + ":" +
           std::to_string(st.st_ctim.tv_sec) + "." + std::to_string(st.st_ctim.tv_nsec);
}

Result<std::shared_ptr<const WebState>> make_state(const WebConfig& config) {
    auto state = std::make_shared<WebState>();
    state->auth = std::make_shared<BasicAuth>(config.users);
    if (config.tls) {
        auto made = net::TlsContext::server(config.tls->cert_file, config.tls->key_file);
        if (!made.ok()) return Error{made.error()};
        state->tls = made.value();
    }
    return std::shared_ptr<const WebState>(std::move(state));
}

}  // namespace

Result<std::unique_ptr<LiveWebConfig>> LiveWebConfig::start(std::optional<std::string> path, WebConfig initial,
                                                            Log log) {
    auto state = make_state(initial);
    if (!state.ok()) return Error{state.error()};
    return std::unique_ptr<LiveWebConfig>(
        new LiveWebConfig(std::move(path), std::move(initial), std::move(state.value()), std::move(log)));
}

LiveWebConfig::LiveWebConfig(std::optional<std::string> path, WebConfig config, std::shared_ptr<const WebState> state,
                             Log log)
    : path_(std::move(path)),
      config_(std::move(config)),
      log_(std::move(log)),
      state_(std::move(state)),
      looked_at_(mono_now()) {
    seen_ = stamps();
}

std::vector<std::string> LiveWebConfig::stamps() const {
    std::vector<std::string> out;
    if (!path_) return out;
    out.push_back(stamp(*path_));
    if (config_.tls) {
        out.push_back(stamp(config_.tls->cert_file));
        out.push_back(stamp(config_.tls->key_file));
    }
    return out;
}

std::shared_ptr<const WebState> LiveWebConfig::current() {
    std::lock_guard lock(mutex_);
    if (path_ && mono_now() - looked_at_ >= kWebConfigLook) look();
    return state_;
}

void LiveWebConfig::reload() {
    std::lock_guard lock(mutex_);
    seen_.clear();  // a SIGHUP reads the file again even when nothing seems changed
    look();
}

void LiveWebConfig::look() {
    looked_at_ = mono_now();
    if (!path_) return;
    const auto now = stamps();
    if (now == seen_) return;
    seen_ = now;
    const auto refused = [&](const std::string& why) {
        log_("the web config " + *path_ + " cannot be used: " + why + "; the previous one stays in force");
    };
    auto loaded = load_web_config(*path_);
    if (!loaded.ok()) return refused(loaded.error());
    if (loaded.value().tls.has_value() != config_.tls.has_value())
        return refused(std::string("TLS cannot be turned ") + (config_.tls ? "off" : "on") + " without a restart");
    auto state = make_state(loaded.value());
    if (!state.ok()) return refused(state.error());
    config_ = std::move(loaded.value());
    state_ = std::move(state.value());
    seen_ = stamps();  // the new config may name other certificate files
    log_("reloaded the web config " + *path_ + " (" + std::to_string(config_.users.size()) + " users" +
         (config_.tls ? ", TLS" : "") + ")");
}

}  // namespace musatop::serve
