#include "musatop/cli/privilege_guard.hpp"

#include "musatop/util/subprocess.hpp"

namespace musatop::cli {

std::string acting_for(const privilege::Invoker& invoker) {
    return "running as root for UID " + std::to_string(invoker.uid) + " (" + invoker.how + ")";
}

std::optional<std::string> guard_setting_paths(const Options& options, const privilege::Invoker& invoker,
                                               SettingPaths& paths, std::vector<std::string>& warnings) {
    if (options.config_file)
        if (auto why = privilege::untrusted(*options.config_file))
            return acting_for(invoker) + ", musatop reads no configuration that user controls: " + *why;
    for (std::string* path : {&paths.system, &paths.user}) {
        if (path->empty()) continue;
        auto why = privilege::untrusted(*path);
        if (!why || why->find("No such file") != std::string::npos) continue;  // absent: nothing to read
        warnings.push_back(acting_for(invoker) + ": not reading " + *path + " (" + *why + ")");
        path->clear();
    }
    // The screen's remembered choices are that user's too: neither read nor written.
    paths.state.clear();
    paths.state_refused = acting_for(invoker) + ": the screen's choices are not remembered";
    return std::nullopt;
}

std::optional<std::string> guard_options(const Options& options, const privilege::Invoker& invoker,
                                         const std::string& path_variable) {
    const auto refuse = [&](const std::string& what, const std::string& why) {
        return acting_for(invoker) + ", musatop " + what + ": " + why;
    };
    if (!options.demo && !options.replay && !options.cluster.active()) {
        const auto gmi = subprocess::resolve_executable(options.gmi, path_variable);
        if (gmi.status == subprocess::ExecutableLookup::Status::found)
            if (auto why = privilege::untrusted(gmi.path)) return refuse("runs no program that user controls", *why);
        if (options.driver.root != "/")
            if (auto why = privilege::untrusted(options.driver.root))
                return refuse("reads no driver tree that user controls", *why);
    }
    if (options.serve && options.serve->web_config_file)
        if (auto why = privilege::untrusted(*options.serve->web_config_file))
            return refuse("reads no web config that user controls", *why);
    for (const auto* file :
         {options.record ? &options.record->file : nullptr, options.record_file ? &*options.record_file : nullptr})
        if (file)
            if (auto why = privilege::not_writable_by(*file, invoker.uid))
                return refuse("writes only where that user could", *why);
    return std::nullopt;
}

std::optional<std::string> guard_write(const std::string& path, const privilege::Invoker& invoker) {
    if (auto why = privilege::not_writable_by(path, invoker.uid))
        return acting_for(invoker) + ", musatop writes only where that user could: " + *why;
    return std::nullopt;
}

}  // namespace musatop::cli
