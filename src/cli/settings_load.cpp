// The layers of settings, in order, and --write-config.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "musatop/cli/privilege_guard.hpp"
#include "musatop/cli/settings.hpp"
#include "musatop/cli/state_file.hpp"
#include "musatop/util/safe_file.hpp"
#include "musatop/output/sanitize.hpp"

namespace musatop::cli {
namespace {

namespace fs = std::filesystem;

// A config file: absent is fine unless it was asked for by name.
Result<std::optional<SettingLayer>> read_config(const std::string& path, bool required) {
    std::ifstream file(path);
    if (!file) {
        if (errno == ENOENT && !required) return std::optional<SettingLayer>();
        return Error{path + ": " + std::strerror(errno)};
    }
    std::stringstream text;
    text << file.rdbuf();
    auto layer = parse_settings_toml(text.str(), path);
    if (!layer.ok()) return Error{layer.error()};
    return std::optional<SettingLayer>(std::move(layer.value()));
}

}  // namespace

Result<LoadedSettings> load_settings(Options& options, const std::set<std::string>& explicit_keys, bool screen,
                                     const SettingPaths& paths, const std::function<const char*(const char*)>& getenv) {
    std::vector<SettingLayer> layers;  // lowest first
    // The screen's remembered choices fill only what the files leave unset: a key
    // the user wrote in a file wins over a key press remembered from an earlier run.
    LoadedSettings loaded;
    if (screen && paths.state.empty()) {
        loaded.warnings.push_back(!paths.state_refused.empty()
                                      ? paths.state_refused
                                      : "no home directory (HOME is unset and the account has none): the screen's "
                                        "choices are not remembered");
    } else if (screen) {
        loaded.state_path = paths.state;
        auto state = read_state(paths.state);
        if (state.ok()) layers.push_back(std::move(state.value()));
        else loaded.warnings.push_back("ignoring the remembered screen settings: " + state.error());
    }
    const auto add_file = [&](const std::string& path, bool required) -> std::optional<std::string> {
        auto layer = read_config(path, required);
        if (!layer.ok()) return layer.error();
        if (layer.value()) layers.push_back(std::move(*layer.value()));
        return std::nullopt;
    };
    if (options.config_file) {
        if (auto error = add_file(*options.config_file, true)) return Error{*error};
    } else if (!options.no_config) {
        if (!paths.system.empty())  // "" when a privileged run may not trust it
            if (auto error = add_file(paths.system, false)) return Error{*error};
        if (!paths.user.empty())  // "" without a home: no per-user file
            if (auto error = add_file(paths.user, false)) return Error{*error};
    }
    auto environment = settings_from_environment(getenv);
    if (!environment.ok()) return Error{environment.error()};
    layers.push_back(std::move(environment.value()));
    for (const auto& layer : layers) apply_settings(options, layer, explicit_keys);
    return loaded;
}

int write_config_file(const Options& options, const std::function<const char*(const char*)>& getenv,
                      const std::optional<privilege::Invoker>& invoker) {
    const std::string path = options.write_config->empty() ? setting_paths(getenv).user : *options.write_config;
    if (path.empty()) {
        std::cerr
            << "musatop: no home directory (HOME is unset and the account has none): give --write-config a FILE\n";
        return 1;
    }
    if (invoker)
        if (auto refused = guard_write(path, *invoker)) {
            std::cerr << "musatop: " << sanitize(*refused) << "\n";
            return 1;
        }
    std::error_code error;
    if (fs::exists(fs::symlink_status(path, error)) && !options.force) {
        std::cerr << "musatop: " << sanitize(path) << " exists; add --force to replace it\n";
        return 1;
    }
    if (const auto parent = fs::path(path).parent_path(); !parent.empty()) fs::create_directories(parent, error);
    const auto written =
        replace_file(path, default_config_text());  // atomic; a symlink there is replaced, not followed
    if (!written.ok()) {
        std::cerr << "musatop: cannot write " << sanitize(written.error()) << "\n";
        return 1;
    }
    std::cout << "musatop: wrote the default settings to " << path << "\n";
    return 0;
}

}  // namespace musatop::cli
