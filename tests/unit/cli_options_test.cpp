#include <gtest/gtest.h>

#include "musatop/cli/options.hpp"

using namespace musatop;
using namespace musatop::cli;

namespace {

ParseResult parse(std::vector<std::string> args) { return parse_command_line(args); }

void expect_usage_error(std::vector<std::string> args, const std::string& message) {
    const auto result = parse(args);
    ASSERT_TRUE(result.exit_code) << message;
    EXPECT_EQ(*result.exit_code, 2);
    EXPECT_NE(result.stderr_text.find(message), std::string::npos) << result.stderr_text;
    EXPECT_TRUE(result.stdout_text.empty());
}

}  // namespace

TEST(CliOptions, Defaults) {
    const auto result = parse({});
    EXPECT_FALSE(result.exit_code);
    EXPECT_EQ(result.options.interval_seconds, 1.0);
    EXPECT_EQ(result.options.filter.sort, SortField::gpu_memory);
    EXPECT_FALSE(result.options.filter.gpu_indices);
    EXPECT_EQ(result.options.gmi, "mthreads-gmi");
    EXPECT_EQ(result.options.timeout_seconds, 3.0);
}

TEST(CliOptions, EveryFlag) {
    const auto result =
        parse({"--once", "--json", "--interval=0.5", "--gpu", "1, 0,1", "--pid", "+7", "--user", "bob", "--sort", "pid",
               "--reverse", "--ascii", "--no-color", "--demo", "--gmi", "/opt/gmi", "--timeout", "0.2"});
    ASSERT_FALSE(result.exit_code) << result.stderr_text;
    const Options& o = result.options;
    EXPECT_TRUE(o.once && o.json && o.ascii && o.no_color && o.demo && o.filter.reverse);
    EXPECT_EQ(o.interval_seconds, 0.5);
    EXPECT_EQ(*o.filter.gpu_indices, (std::set<std::int64_t>{0, 1}));
    EXPECT_EQ(*o.filter.pids, (std::set<std::int64_t>{7}));
    EXPECT_EQ(o.filter.users, std::vector<std::string>{"bob"});
    EXPECT_EQ(o.filter.sort, SortField::pid);
    EXPECT_EQ(o.gmi, "/opt/gmi");
    EXPECT_EQ(o.timeout_seconds, 0.2);
}

TEST(CliOptions, LastRepeatWins) {
    EXPECT_EQ(parse({"--interval", "2", "--interval", "3"}).options.interval_seconds, 3.0);
}

TEST(CliOptions, IntervalValidation) {
    for (const char* bad : {"nan", "inf", "0", "1e300", "-1", "0.01", "3601"})
        expect_usage_error({"--interval", bad}, "interval must be between 0.05 and 3600 seconds");
    expect_usage_error({"--interval", "abc"}, "argument --interval: interval must be a number");
    EXPECT_EQ(parse({"--interval", "0.05"}).options.interval_seconds, 0.05);
    EXPECT_EQ(parse({"--interval", "3600"}).options.interval_seconds, 3600);
}

TEST(CliOptions, ListValidation) {
    for (const char* bad : {"0,-1", "10,", "", "a", "1,,2", "1.5"})
        expect_usage_error({"--gpu", bad}, "argument --gpu: expected comma-separated nonnegative integers");
    expect_usage_error({"--pid", "10,"}, "argument --pid: expected comma-separated nonnegative integers");
}

TEST(CliOptions, SortChoicesAndUnknownFlags) {
    expect_usage_error({"--sort", "invalid"}, "argument --sort: invalid choice: 'invalid'");
    expect_usage_error({"--bogus"}, "--bogus");
    expect_usage_error({"--timeout", "0"}, "timeout must be between");
}

TEST(CliOptions, HelpAndVersionExitZero) {
    auto result = parse({"--version"});
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_EQ(result.stdout_text.rfind(std::string("musatop ") + kVersion + " (", 0), 0u) << result.stdout_text;
    EXPECT_NE(result.stdout_text.find(std::string(kBuildKind) + " build, " + kBuildArch + ")\n"), std::string::npos);
    result = parse({"--help"});
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_NE(result.stdout_text.find("--interval"), std::string::npos);
    EXPECT_NE(result.stdout_text.find("--demo"), std::string::npos);
    EXPECT_NE(result.stdout_text.find("'musatop gpustat --help'"), std::string::npos);  // the drop-in is findable
}

// `record --help` says which of the main flags the recorder takes (a new user
// could not tell that --demo and --interval apply).
TEST(CliOptions, RecordHelpNamesTheMainFlagsItTakes) {
    const auto help = parse({"record", "--help"}).stdout_text;
    for (const char* flag : {"--interval", "--demo", "--gmi", "--gpu", "SIGQUIT"})
        EXPECT_NE(help.find(flag), std::string::npos) << flag;
    const auto parsed = parse({"record", "r.rec", "--demo", "--interval", "0.5"});
    EXPECT_FALSE(parsed.exit_code);
    EXPECT_TRUE(parsed.options.demo);
    EXPECT_EQ(parsed.options.interval_seconds, 0.5);
}
