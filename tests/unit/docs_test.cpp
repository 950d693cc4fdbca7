// The man page and the shell completions are written by hand next to the code;
// these tests keep them from drifting: every flag of every --help, every key of
// the screen, every setting and its variable, every exit code must be named, and
// a completion may offer no flag that does not exist.
#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "musatop/cli/gpustat_command.hpp"
#include "musatop/cli/options.hpp"
#include "musatop/cli/settings.hpp"
#include "musatop/tui/key_table.hpp"
#include "test_support.hpp"

using namespace musatop;

namespace {

std::string source_file(const std::string& relative) {
    return musatop::testing::read_text(std::string(MUSATOP_SOURCE_DIR) + "/" + relative);
}

std::set<std::string> long_flags(const std::string& text) {
    std::set<std::string> flags;
    static const std::regex flag("--[a-z][a-z-]*[a-z]");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), flag); it != std::sregex_iterator(); ++it)
        flags.insert(it->str());
    return flags;
}

// Every flag of the program and its subcommands, from their --help.
std::set<std::string> program_flags() {
    std::set<std::string> flags;
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"--help"}, {"serve", "--help"}, {"record", "--help"}, {"replay", "--help"}, {"gpustat", "--help"}}) {
        const auto help = args.front() == "gpustat"
                              ? cli::parse_gpustat_command_line({args.begin() + 1, args.end()}).stdout_text
                              : cli::parse_command_line(args).stdout_text;
        EXPECT_FALSE(help.empty());
        // The option lists only (the footer names flags of other commands): from
        // "Options:" to "Subcommands:" or, without subcommands, the first blank line.
        const auto start = help.find("Options:");
        auto end = help.find("Subcommands:");
        if (end == std::string::npos) end = help.find("\n\n", start);
        for (const auto& flag : long_flags(help.substr(start, end - start))) flags.insert(flag);
    }
    return flags;
}

}  // namespace

TEST(Docs, ManPageNamesEveryFlagKeySettingVariableAndExitCode) {
    const std::string man = source_file("docs/man/musatop.1.scd");
    for (const auto& flag : program_flags()) EXPECT_NE(man.find("*" + flag + "*"), std::string::npos) << flag;
    for (const auto& entry : tui::key_table())
        EXPECT_NE(man.find("*" + std::string(entry.keys)), std::string::npos) << entry.keys;
    for (const auto& key : cli::setting_keys()) {
        const auto dot = key.key.find('.');
        const std::string name(dot == std::string_view::npos ? key.key : key.key.substr(dot + 1));
        EXPECT_NE(man.find("*" + name + "*"), std::string::npos) << key.key;
        EXPECT_NE(man.find("*" + cli::environment_name(key) + "*"), std::string::npos) << key.key;
    }
    for (const char* code : {"*0*", "*1*", "*2*", "(130)", "(143)", "(129)", "(131)"})
        EXPECT_NE(man.find(code), std::string::npos) << code;
    for (const char* mode : {"*musatop serve*", "*musatop record*", "*musatop replay*", "*musatop --demo*"})
        EXPECT_NE(man.find(mode), std::string::npos) << mode;
}

TEST(Docs, CompletionsOfferEveryFlagAndNoOther) {
    const auto flags = program_flags();
    for (const char* file : {"packaging/completions/musatop.bash", "packaging/completions/_musatop",
                             "packaging/completions/musatop.fish"}) {
        std::string text = source_file(file);
        // fish writes "complete ... -l sort" for --sort.
        text = std::regex_replace(text, std::regex("(\ncomplete [^\n]*) -l ([a-z][a-z-]*)"), "$1 --$2");
        const auto offered = long_flags(text);
        for (const auto& flag : flags) EXPECT_TRUE(offered.count(flag)) << file << " lacks " << flag;
        for (const auto& flag : offered) EXPECT_TRUE(flags.count(flag)) << file << " offers " << flag;
        for (const char* field : {"gpu_memory", "gpu_util", "cpu", "rss", "pid", "user", "gpu"})
            EXPECT_NE(text.find(field), std::string::npos) << file << " lacks the sort field " << field;
    }
}
