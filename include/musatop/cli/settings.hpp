// Settings that can come from somewhere other than the command line: the config
// files, the environment and the screen's remembered state. One table names every
// key once (its TOML name, flag, environment variable, type, range and comment);
// the parser, the environment reader, --write-config and the man page test all
// read it. Precedence: flags > environment > state > user file > system file >
// built-in defaults.
#pragma once

#include "musatop/util/privilege.hpp"

#include <functional>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "musatop/cli/options.hpp"
#include "musatop/util/result.hpp"

namespace musatop::cli {

using SettingValue = std::variant<bool, double, std::string>;

enum class SettingKind { boolean, number, text, choice };

struct SettingKey {
    std::string_view key;   // "interval", "serve.listen", "health.idle_minutes"
    std::string_view flag;  // the flag that sets it explicitly ("" when none)
    SettingKind kind = SettingKind::text;
    double min = 0, max = 0;        // numbers: the allowed range
    std::string_view choices;       // choice: "a|b|c"
    std::string_view comment;       // one line above the key in --write-config
    std::string_view default_toml;  // the built-in default as TOML
    void (*apply)(Options&, const SettingValue&) = nullptr;
    // The flag's argument in --help ("SECONDS"); a number flag's unit is its lower case.
    std::string_view type_name;
    // The flag's --help line when the comment does not read as one (a --no-* flag).
    std::string_view flag_help;
    // The value a flag given without one stands for ("" when it needs one).
    std::string_view bare_value;
};

std::span<const SettingKey> setting_keys();

// "MUSATOP_" + the key upper-cased with '.' as '_': MUSATOP_SERVE_LISTEN.
std::string environment_name(const SettingKey& key);

// Values from one place, in the order found; `where` names it in messages.
struct SettingLayer {
    std::string where;
    std::vector<std::pair<const SettingKey*, SettingValue>> values;
};

// A TOML document: unknown keys, wrong types and values out of range are errors
// naming "PATH:LINE:COLUMN: ...". Nothing is half-applied: the layer is all or none.
Result<SettingLayer> parse_settings_toml(std::string_view text, const std::string& path);

// MUSATOP_* variables (and NO_COLOR, which turns colour off).
Result<SettingLayer> settings_from_environment(const std::function<const char*(const char*)>& getenv);

// Applies a layer to the options, except keys the command line set explicitly.
void apply_settings(Options& options, const SettingLayer& layer, const std::set<std::string>& explicit_keys);

// Every key with its default and a comment above it, in sections.
std::string default_config_text();

struct SettingPaths {
    std::string user;           // $XDG_CONFIG_HOME/musatop/config.toml (~/.config/...)
    std::string system;         // /etc/musatop/config.toml
    std::string state;          // $XDG_STATE_HOME/musatop/state.toml (~/.local/state/...)
    std::string state_refused;  // why `state` is empty when it is not for want of a home
};

SettingPaths setting_paths(const std::function<const char*(const char*)>& getenv);

}  // namespace musatop::cli

namespace musatop::cli {

struct LoadedSettings {
    std::optional<std::string> state_path;  // where the screen remembers its choices
    std::vector<std::string> warnings;      // an unreadable state file (ignored)
};

// Reads the system and user files (or --config's, or none), the state file when
// `screen`, and the environment, and applies them under the explicit flags. A bad
// file or variable is an error naming it: nothing is applied then.
Result<LoadedSettings> load_settings(Options& options, const std::set<std::string>& explicit_keys, bool screen,
                                     const SettingPaths& paths, const std::function<const char*(const char*)>& getenv);

// --write-config [FILE]: the exit status, messages on stderr.
// `invoker`: a root run acting for that user writes only where the user could.
int write_config_file(const Options& options, const std::function<const char*(const char*)>& getenv,
                      const std::optional<privilege::Invoker>& invoker = std::nullopt);

}  // namespace musatop::cli
