// Reading settings from TOML and the environment, writing the defaults.
#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "musatop/cli/settings.hpp"

#include <pwd.h>
#include <unistd.h>
#include "musatop/util/text.hpp"
#include "musatop/util/version.hpp"

namespace musatop::cli {
namespace {

const SettingKey* find_key(std::string_view name) {
    for (const auto& key : setting_keys())
        if (key.key == name) return &key;
    return nullptr;
}

bool is_section(std::string_view name) {
    for (const auto& key : setting_keys())
        if (key.key.size() > name.size() && key.key.starts_with(name) && key.key[name.size()] == '.') return true;
    return false;
}

std::string number_text(double value) {
    std::ostringstream out;
    out << value;
    return out.str();
}

std::string choices_text(std::string_view choices) {
    std::string out(choices);
    std::replace(out.begin(), out.end(), '|', ',');
    return out;
}

// Range and choice checks shared by the file and the environment.
std::optional<std::string> check(const SettingKey& key, const SettingValue& value) {
    if (key.kind == SettingKind::number) {
        const double number = std::get<double>(value);
        if (!std::isfinite(number) || number < key.min || number > key.max)
            return number_text(number) + " is out of range (" + number_text(key.min) + " to " + number_text(key.max) +
                   ")";
    }
    if (key.kind == SettingKind::choice) {
        const auto& text = std::get<std::string>(value);
        std::string_view rest = key.choices;
        while (!rest.empty()) {
            const auto bar = rest.find('|');
            if (rest.substr(0, bar) == text) return std::nullopt;
            rest = bar == std::string_view::npos ? std::string_view() : rest.substr(bar + 1);
        }
        return "'" + text + "' is not one of " + choices_text(key.choices);
    }
    return std::nullopt;
}

const char* kind_name(SettingKind kind) {
    switch (kind) {
        case SettingKind::boolean: return "true or false";
        case SettingKind::number: return "a number";
        case SettingKind::text:
        case SettingKind::choice: return "a string";
    }
    return "a value";
}

std::optional<SettingValue> toml_value(const SettingKey& key, const toml::node& node) {
    switch (key.kind) {
        case SettingKind::boolean:
            if (node.is_boolean()) return SettingValue(*node.value<bool>());
            break;
        case SettingKind::number:
            if (node.is_integer() || node.is_floating_point()) return SettingValue(*node.value<double>());
            break;
        case SettingKind::text:
        case SettingKind::choice:
            if (node.is_string()) return SettingValue(*node.value<std::string>());
            break;
    }
    return std::nullopt;
}

struct Invalid {
    std::string message;
};

std::string at(const std::string& path, const toml::source_region& source) {
    return path + ":" + std::to_string(source.begin.line) + ":" + std::to_string(source.begin.column) + ": ";
}

void read_table(const toml::table& table, const std::string& prefix, const std::string& path, SettingLayer& layer) {
    for (const auto& [name, node] : table) {
        const std::string full = prefix + std::string(name.str());
        if (node.is_table() && prefix.empty() && is_section(full)) {
            read_table(*node.as_table(), full + ".", path, layer);
            continue;
        }
        const SettingKey* key = find_key(full);
        if (!key) throw Invalid{at(path, name.source()) + "unknown key '" + full + "'"};
        const auto value = toml_value(*key, node);
        if (!value) throw Invalid{at(path, node.source()) + full + ": expected " + kind_name(key->kind)};
        if (const auto wrong = check(*key, *value)) throw Invalid{at(path, node.source()) + full + ": " + *wrong};
        layer.values.emplace_back(key, *value);
    }
}

std::optional<bool> boolean_text(std::string_view text) {
    const std::string word = text::fold_case(text::trim(text));
    if (word == "1" || word == "true" || word == "yes" || word == "on") return true;
    if (word == "0" || word == "false" || word == "no" || word == "off") return false;
    return std::nullopt;
}

// toml++ recurses once per level of a dotted key, table or array: a 40,000-deep
// `a.a.a...` overflowed the stack (SIGSEGV) before any error could be said. A
// settings file needs two levels; deeper or larger text is refused at the place
// it goes too deep, before the parser sees it.
constexpr std::size_t kMaxSettingsBytes = 1 << 20;
constexpr int kMaxNesting = 32;

std::optional<std::string> shape_problem(std::string_view text, const std::string& path) {
    if (text.size() > kMaxSettingsBytes) return path + ": larger than 1 MiB; not a settings file";
    int line = 1, column = 0, depth = 0, dots = 0;
    bool in_key = true;  // before the line's '=': dots there are levels of a key
    char quote = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        ++column;
        if (c == '\n') {
            ++line, column = 0, dots = 0;
            in_key = depth == 0;
            if (quote == '"' || quote == '\'') quote = 0;  // a one-line string ends with its line (else toml++ says so)
            continue;
        }
        if (quote) {
            if (c == '\\' && quote == '"') ++i, ++column;
            else if (c == quote) quote = 0;
            continue;
        }
        if (c == '#') {
            while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '=') {
            in_key = false;
        } else if (c == '.' && in_key && ++dots > kMaxNesting) {
            return path + ":" + std::to_string(line) + ":" + std::to_string(column) + ": a key more than " +
                   std::to_string(kMaxNesting) + " levels deep";
        } else if ((c == '[' || c == '{') && ++depth > kMaxNesting) {
            return path + ":" + std::to_string(line) + ":" + std::to_string(column) + ": nested more than " +
                   std::to_string(kMaxNesting) + " levels deep";
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return std::nullopt;
}

}  // namespace

Result<SettingLayer> parse_settings_toml(std::string_view text, const std::string& path) {
    SettingLayer layer{path, {}};
    if (auto problem = shape_problem(text, path)) return Error{*problem};
    try {
        const toml::table table = toml::parse(text, path);
        read_table(table, "", path, layer);
    } catch (const toml::parse_error& error) {
        return Error{at(path, error.source()) + std::string(error.description())};
    } catch (const Invalid& invalid) {
        return Error{invalid.message};
    }
    return layer;
}

Result<SettingLayer> settings_from_environment(const std::function<const char*(const char*)>& getenv) {
    SettingLayer layer{"the environment", {}};
    if (const char* no_color = getenv("NO_COLOR"); no_color && *no_color)  // no-color.org: any non-empty value
        layer.values.emplace_back(find_key("color"), SettingValue(false));
    for (const auto& key : setting_keys()) {
        const std::string name = environment_name(key);
        const char* raw = getenv(name.c_str());
        if (!raw) continue;
        const std::string where = "environment " + name + ": ";
        std::optional<SettingValue> value;
        if (key.kind == SettingKind::boolean) {
            if (const auto flag = boolean_text(raw)) value = *flag;
        } else if (key.kind == SettingKind::number) {
            if (const auto number = parse_seconds(raw)) value = *number;
        } else {
            value = std::string(raw);
        }
        if (!value) return Error{where + "expected " + kind_name(key.kind) + ", got '" + raw + "'"};
        if (const auto wrong = check(key, *value)) return Error{where + *wrong};
        layer.values.emplace_back(&key, *value);
    }
    return layer;
}

void apply_settings(Options& options, const SettingLayer& layer, const std::set<std::string>& explicit_keys) {
    for (const auto& [key, value] : layer.values)
        if (!explicit_keys.count(std::string(key->key))) key->apply(options, value);
}

std::string default_config_text() {
    std::string out =
        "# musatop configuration (TOML). Every key is optional; these are the built-in\n"
        "# defaults. /etc/musatop/config.toml is read first, then\n"
        "# $XDG_CONFIG_HOME/musatop/config.toml, which wins; MUSATOP_* variables win over\n"
        "# both and command-line flags over everything. A key set here wins over the\n"
        "# screen's remembered choices (~/.local/state/musatop/state.toml).\n";
    std::string section;
    for (const auto& key : setting_keys()) {
        const auto dot = key.key.find('.');
        const std::string key_section = dot == std::string_view::npos ? "" : std::string(key.key.substr(0, dot));
        if (key_section != section) {
            section = key_section;
            out += "\n[" + section + "]\n";
        }
        out += "\n# " + std::string(key.comment);
        if (key.kind == SettingKind::choice) out += " One of: " + choices_text(key.choices) + ".";
        if (!key.flag.empty()) out += " Flag: " + std::string(key.flag) + ".";
        out += "\n" + std::string(dot == std::string_view::npos ? key.key : key.key.substr(dot + 1)) + " = " +
               std::string(key.default_toml) + "\n";
    }
    return out;
}

namespace {

// The account's home from the user database: /etc/passwd read here in a static
// binary, which must not load the host's NSS modules; glibc's lookup otherwise.
std::string account_home(uid_t uid) {
    if (std::string_view(kBuildKind) == "static") {
        std::ifstream file("/etc/passwd");
        for (std::string line; std::getline(file, line);) {
            const auto fields = text::split(line, ':');
            if (fields.size() >= 6 && fields[2] == std::to_string(uid) && !fields[5].empty() && fields[5][0] == '/')
                return std::string(fields[5]);
        }
        return "";
    }
    const passwd* account = ::getpwuid(uid);
    return account && account->pw_dir && account->pw_dir[0] == '/' ? account->pw_dir : "";
}

}  // namespace

SettingPaths setting_paths(const std::function<const char*(const char*)>& getenv) {
    // Without HOME (cron, some service managers) the account's home from the user
    // database; without either there is no per-user file at all (""), never one at
    // the filesystem's root.
    std::string home = getenv("HOME") ? getenv("HOME") : "";
    if (home.empty() || home.front() != '/') home = account_home(::getuid());
    if (home == "/") home.clear();
    const auto base = [&](const char* variable, const char* under_home) -> std::string {
        const char* value = getenv(variable);
        if (value && *value == '/') return value;  // the XDG spec ignores relative paths
        return home.empty() ? std::string() : home + under_home;
    };
    const auto in = [](std::string dir, const char* file) { return dir.empty() ? dir : dir + file; };
    return SettingPaths{in(base("XDG_CONFIG_HOME", "/.config"), "/musatop/config.toml"), "/etc/musatop/config.toml",
                        in(base("XDG_STATE_HOME", "/.local/state"), "/musatop/state.toml"), ""};
}

}  // namespace musatop::cli
