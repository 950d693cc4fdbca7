#include "musatop/cli/state_file.hpp"

#include "musatop/util/safe_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "musatop/util/unique_fd.hpp"

namespace musatop::cli {
namespace {

constexpr const char* kStateKeys[] = {"sort", "reverse", "compact", "trends"};

bool is_state_key(std::string_view key) {
    for (const char* name : kStateKeys)
        if (key == name) return true;
    return false;
}

std::string state_text(const tui::ScreenChoices& c) {
    const auto flag = [](bool b) { return b ? "true" : "false"; };
    return std::string(
               "# Written by musatop: what was last chosen on the screen. Flags, MUSATOP_*\n"
               "# variables and the config files win over it; delete the file to forget.\n") +
           "sort = \"" + to_string(c.sort) + "\"\nreverse = " + flag(c.reverse) + "\ncompact = " + flag(c.compact) +
           "\ntrends = " + flag(c.trends) + "\n";
}

}  // namespace

Result<SettingLayer> read_state(const std::string& path) {
    std::ifstream file(path);
    if (!file) {
        if (errno == ENOENT) return SettingLayer{path, {}};
        return Error{path + ": " + std::strerror(errno)};
    }
    std::stringstream text;
    text << file.rdbuf();
    auto layer = parse_settings_toml(text.str(), path);
    if (!layer.ok()) return layer;
    for (const auto& [key, value] : layer->values)
        if (!is_state_key(key->key)) return Error{path + ": '" + std::string(key->key) + "' is not a screen setting"};
    return layer;
}

std::optional<std::string> write_state(const std::string& path, const tui::ScreenChoices& choices) {
    namespace fs = std::filesystem;
    std::error_code error;
    fs::create_directories(fs::path(path).parent_path(), error);
    if (error) return fs::path(path).parent_path().string() + ": " + error.message();
    // A temporary name of our own (O_EXCL), renamed over the file: a symlink planted
    // at either name is never followed, even when root runs `sudo -E musatop`.
    const auto written = replace_file(path, state_text(choices));
    if (!written.ok()) return written.error();
    return std::nullopt;
}

}  // namespace musatop::cli
