// Settings: the TOML parser's errors, the environment, precedence of every layer,
// --write-config's text, and the state file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "musatop/cli/settings.hpp"
#include "musatop/cli/state_file.hpp"
#include "test_support.hpp"

using namespace musatop;
using namespace musatop::cli;

namespace {

std::string parse_error(const std::string& text) {
    const auto layer = parse_settings_toml(text, "c.toml");
    return layer.ok() ? std::string() : layer.error();
}

struct Environment {
    std::map<std::string, std::string> values;
    std::function<const char*(const char*)> getenv() const {
        return [this](const char* name) {
            const auto it = values.find(name);
            return it == values.end() ? static_cast<const char*>(nullptr) : it->second.c_str();
        };
    }
};

Options options_from(const std::string& text) {
    Options options;
    const auto layer = parse_settings_toml(text, "c.toml");
    EXPECT_TRUE(layer.ok()) << layer.error();
    if (layer.ok()) apply_settings(options, layer.value(), {});
    return options;
}

}  // namespace

TEST(Settings, EveryErrorNamesTheFileLineAndColumn) {
    EXPECT_EQ(parse_error("intervall = 2\n"), "c.toml:1:1: unknown key 'intervall'");
    EXPECT_EQ(parse_error("\ninterval = \"fast\"\n"), "c.toml:2:12: interval: expected a number");
    EXPECT_EQ(parse_error("interval = 0.01\n"), "c.toml:1:12: interval: 0.01 is out of range (0.05 to 3600)");
    EXPECT_EQ(parse_error("sort = \"size\"\n"),
              "c.toml:1:8: sort: 'size' is not one of gpu_memory,gpu_util,cpu,rss,pid,user,gpu");
    EXPECT_EQ(parse_error("[serve]\nlisten = 9499\n"), "c.toml:2:10: serve.listen: expected a string");
    EXPECT_EQ(parse_error("[serve]\nport = 1\n"), "c.toml:2:1: unknown key 'serve.port'");
    EXPECT_EQ(parse_error("[gpu]\nx = 1\n"), "c.toml:1:2: unknown key 'gpu'");
    EXPECT_EQ(parse_error("reverse = 1\n"), "c.toml:1:11: reverse: expected true or false");
    EXPECT_EQ(parse_error("[health]\nidle_minutes = 0\n"),
              "c.toml:2:16: health.idle_minutes: 0 is out of range (0.1 to 1440)");
    const std::string broken = parse_error("sort = \"pid\"\n[x\n");
    EXPECT_EQ(broken.rfind("c.toml:2:3: ", 0), 0u) << broken;
    EXPECT_EQ(parse_error("interval = 1\ninterval = 2\n").rfind("c.toml:2:", 0), 0u);  // a duplicate key
    EXPECT_EQ(parse_error(""), "");                                                    // an empty file is all defaults
}

TEST(Settings, ValuesReachTheOptions) {
    const Options o = options_from(
        "interval = 2\ntimeout = 0.5\ngmi = \"/opt/mt/bin/mthreads-gmi\"\nsort = \"cpu\"\nreverse = true\n"
        "compact = true\ntrends = false\nascii = true\ncolor = false\nmouse = false\n"
        "[health]\npower_at_limit_percent = 95\nidle_memory_mib = 512\nidle_minutes = 10\n");
    EXPECT_EQ(o.interval_seconds, 2.0);
    EXPECT_EQ(o.timeout_seconds, 0.5);
    EXPECT_EQ(o.gmi, "/opt/mt/bin/mthreads-gmi");
    EXPECT_EQ(o.filter.sort, SortField::cpu);
    EXPECT_TRUE(o.filter.reverse && o.compact && !o.trends && o.ascii && o.no_color && !o.mouse);
    EXPECT_DOUBLE_EQ(o.health.power_at_limit_ratio, 0.95);
    EXPECT_EQ(o.health.idle_memory_bytes, 512LL << 20);
    EXPECT_EQ(o.health.idle_held_for, Seconds(600));
    Options serve;
    serve.serve = ServeOptions{};
    const auto layer = parse_settings_toml("[serve]\nlisten = \":9500\"\nprocess_metrics = \"command\"\n", "c.toml");
    ASSERT_TRUE(layer.ok());
    apply_settings(serve, layer.value(), {});
    EXPECT_EQ(serve.serve->listen, ":9500");
    EXPECT_EQ(serve.serve->process_metrics, serve::ProcessMetrics::with_command);
}

TEST(Settings, TheWrittenDefaultsParseBackToTheBuiltInDefaults) {
    const std::string text = default_config_text();
    for (const auto& key : setting_keys()) {
        const auto dot = key.key.find('.');
        const std::string name(dot == std::string_view::npos ? key.key : key.key.substr(dot + 1));
        const auto at = text.find("\n" + name + " = ");
        ASSERT_NE(at, std::string::npos) << key.key;
        EXPECT_EQ(text.substr(0, at).rfind('#'), text.substr(0, at).rfind("\n# ") + 1) << "a comment above " << key.key;
    }
    Options defaults;
    defaults.serve = ServeOptions{};
    Options written = defaults;
    const auto layer = parse_settings_toml(text, "defaults");
    ASSERT_TRUE(layer.ok()) << layer.error();
    EXPECT_EQ(layer->values.size(), setting_keys().size());
    apply_settings(written, layer.value(), {});
    EXPECT_EQ(written.interval_seconds, defaults.interval_seconds);
    EXPECT_EQ(written.filter.sort, defaults.filter.sort);
    EXPECT_EQ(written.trends, defaults.trends);
    EXPECT_EQ(written.mouse, defaults.mouse);
    EXPECT_EQ(written.serve->listen, defaults.serve->listen);
    EXPECT_EQ(written.serve->process_metrics, defaults.serve->process_metrics);
    EXPECT_EQ(written.health.idle_memory_bytes, defaults.health.idle_memory_bytes);
    EXPECT_DOUBLE_EQ(written.health.power_at_limit_ratio, defaults.health.power_at_limit_ratio);
}

TEST(Settings, PrecedenceFlagsEnvironmentUserSystemStateDefaults) {
    musatop::testing::TempDir dir;
    const auto write = [&](const std::string& name, const std::string& text) {
        std::ofstream(dir.path() / name) << text;
        return (dir.path() / name).string();
    };
    SettingPaths paths{write("user.toml", "interval = 2\nsort = \"pid\"\ntimeout = 5\n"),
                       write("system.toml", "interval = 3\ntimeout = 7\nascii = true\ngmi = \"/sys/gmi\"\n"),
                       write("state.toml", "sort = \"user\"\ncompact = true\n"), ""};
    Environment env;
    env.values = {{"MUSATOP_TIMEOUT", "9"}, {"MUSATOP_GMI", "/env/gmi"}};
    Options o;
    const auto loaded = load_settings(o, {"gmi"}, true, paths, env.getenv());  // --gmi was given
    ASSERT_TRUE(loaded.ok()) << loaded.error();
    EXPECT_EQ(o.interval_seconds, 2.0);        // user over system
    EXPECT_TRUE(o.ascii);                      // system over default
    EXPECT_EQ(o.filter.sort, SortField::pid);  // the user file over the remembered state
    EXPECT_TRUE(o.compact);                    // state where no file sets the key
    EXPECT_EQ(o.timeout_seconds, 9.0);         // environment over both files
    EXPECT_EQ(o.gmi, "mthreads-gmi");          // the flag over everything (its value was parsed already)
    EXPECT_EQ(loaded->state_path, paths.state);

    Options one_shot;  // --once/--json: the screen's state does not apply
    ASSERT_TRUE(load_settings(one_shot, {}, false, paths, env.getenv()).ok());
    EXPECT_EQ(one_shot.filter.sort, SortField::pid);
    EXPECT_FALSE(one_shot.compact);

    Options none;  // --no-config: variables still apply, files do not
    none.no_config = true;
    ASSERT_TRUE(load_settings(none, {}, false, paths, env.getenv()).ok());
    EXPECT_EQ(none.interval_seconds, 1.0);
    EXPECT_EQ(none.timeout_seconds, 9.0);

    Options named;  // --config FILE: that file instead of both, and it must exist
    named.config_file = write("other.toml", "interval = 4\n");
    ASSERT_TRUE(load_settings(named, {}, false, paths, env.getenv()).ok());
    EXPECT_EQ(named.interval_seconds, 4.0);
    EXPECT_FALSE(named.ascii);
    named.config_file = (dir.path() / "missing.toml").string();
    const auto missing = load_settings(named, {}, false, paths, env.getenv());
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().find("missing.toml: No such file"), std::string::npos);
}

TEST(Settings, BadFilesAndVariablesApplyNothing) {
    musatop::testing::TempDir dir;
    const std::string user = (dir.path() / "user.toml").string();
    std::ofstream(user) << "interval = 2\ncolour = false\n";
    Options o;
    Environment env;
    const auto loaded = load_settings(o, {}, false, {user, "/nonexistent/system.toml", "", ""}, env.getenv());
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.error(), user + ":2:1: unknown key 'colour'");
    EXPECT_EQ(o.interval_seconds, 1.0);  // the good line before it was not applied either

    env.values = {{"MUSATOP_SORT", "size"}};
    const auto bad_env = settings_from_environment(env.getenv());
    ASSERT_FALSE(bad_env.ok());
    EXPECT_EQ(bad_env.error(),
              "environment MUSATOP_SORT: 'size' is not one of gpu_memory,gpu_util,cpu,rss,pid,user,gpu");
    env.values = {{"NO_COLOR", "1"}, {"MUSATOP_MOUSE", "off"}, {"MUSATOP_SERVE_LISTEN", ":1"}};
    const auto good_env = settings_from_environment(env.getenv());
    ASSERT_TRUE(good_env.ok());
    EXPECT_EQ(good_env->values.size(), 3u);
}

TEST(Settings, PathsFollowXdg) {
    Environment env;
    env.values = {{"HOME", "/home/ann"}};
    auto paths = setting_paths(env.getenv());
    EXPECT_EQ(paths.user, "/home/ann/.config/musatop/config.toml");
    EXPECT_EQ(paths.state, "/home/ann/.local/state/musatop/state.toml");
    EXPECT_EQ(paths.system, "/etc/musatop/config.toml");
    env.values["XDG_CONFIG_HOME"] = "/cfg";
    env.values["XDG_STATE_HOME"] = "relative/ignored";
    paths = setting_paths(env.getenv());
    EXPECT_EQ(paths.user, "/cfg/musatop/config.toml");
    EXPECT_EQ(paths.state, "/home/ann/.local/state/musatop/state.toml");
}

TEST(StateFile, WrittenAtomicallyAndReadBack) {
    musatop::testing::TempDir dir;
    const std::string path = (dir.path() / "deep/er/state.toml").string();
    EXPECT_TRUE(read_state(path).ok());  // none yet: empty
    EXPECT_FALSE(write_state(path, {SortField::rss, true, true, false}));
    const auto layer = read_state(path);
    ASSERT_TRUE(layer.ok()) << layer.error();
    Options o;
    apply_settings(o, layer.value(), {"reverse"});  // an explicit --reverse keeps its value
    EXPECT_EQ(o.filter.sort, SortField::rss);
    EXPECT_FALSE(o.filter.reverse);
    EXPECT_TRUE(o.compact);
    EXPECT_FALSE(o.trends);
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir.path() / "deep/er"))
        files += entry.is_regular_file();
    EXPECT_EQ(files, 1);  // no temporary left behind
    std::ofstream(path) << "interval = 2\n";
    EXPECT_FALSE(read_state(path).ok());  // only screen choices belong there
    EXPECT_TRUE(write_state("/proc/musatop/state.toml", {}).has_value());
}

// A symlink planted at the state file's name (or at any temporary name) is never
// followed: root running `sudo -E musatop` would otherwise overwrite its target.
TEST(StateFile, APlantedSymlinkIsReplacedNotFollowed) {
    musatop::testing::TempDir dir;
    const auto decoy = dir.path() / "shadow";
    std::ofstream(decoy) << "root:secret\n";
    const auto path = dir.path() / "state.toml";
    std::filesystem::create_symlink(decoy, path);
    EXPECT_FALSE(write_state(path.string(), {SortField::rss, true, true, false}));
    EXPECT_FALSE(std::filesystem::is_symlink(path));
    std::ifstream kept(decoy);
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(kept), {}), "root:secret\n");
    EXPECT_TRUE(read_state(path.string()).ok());
}

// Without HOME the account's home is used; never a file at the filesystem's root.
TEST(Settings, NoHomeVariableMeansTheAccountsHome) {
    Environment env;  // no HOME, no XDG variables
    const auto paths = setting_paths(env.getenv());
    EXPECT_NE(paths.state.rfind("/.local/state", 0), 0u) << paths.state;
    EXPECT_NE(paths.user.rfind("/.config", 0), 0u) << paths.user;
    env.values = {{"HOME", ""}, {"XDG_STATE_HOME", "/srv/state"}};
    EXPECT_EQ(setting_paths(env.getenv()).state, "/srv/state/musatop/state.toml");
}

// toml++ recurses per level: 40,000 levels crashed musatop before any message.
TEST(Settings, DeepOrHugeTextIsRefusedBeforeTheParser) {
    std::string deep = "a";
    for (int i = 0; i < 40000; ++i) deep += ".a";
    EXPECT_EQ(parse_error(deep + " = 1\n"), "c.toml:1:66: a key more than 32 levels deep");
    EXPECT_EQ(parse_error("x = " + std::string(40000, '[') + "\n"), "c.toml:1:37: nested more than 32 levels deep");
    EXPECT_EQ(parse_error("y = {" + std::string(40000, '{') + "\n").rfind("c.toml:1:", 0), 0u);
    EXPECT_EQ(parse_error(std::string(2 << 20, '#')), "c.toml: larger than 1 MiB; not a settings file");
    // Dots and brackets inside strings and comments are text, not levels.
    EXPECT_EQ(parse_error("# " + std::string(100, '.') + "\nsort = \"" + std::string(100, '[') + "\"\n").find("levels"),
              std::string::npos);
    EXPECT_EQ(parse_error("[colors]\nscheme = \"dark\"\n").find("levels"), std::string::npos);
}
