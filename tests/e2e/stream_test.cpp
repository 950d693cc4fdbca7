// Streams for scripts and terminals (cli/stream.hpp): --json -l writes JSON Lines,
// --once -l text blocks into a pipe and a redrawn terminal, each
// ended by --count, a closed pipe or Ctrl-C.
#include <gtest/gtest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "scenario.hpp"
#include "tmux_session.hpp"
#include "tui_helpers.hpp"

using namespace musatop::testing;
using json = nlohmann::json;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

}  // namespace

TEST(Stream, JsonLinesOneCompactDocumentPerSample) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    const auto run = scenario.run({"--json", "--interval", "0.05", "--count", "3"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto lines = lines_of(run.out);
    ASSERT_EQ(lines.size(), 3u) << run.out;
    std::string previous;
    for (const auto& line : lines) {
        const auto doc = json::parse(line);  // each line a whole document
        EXPECT_EQ(doc["schema_version"], 1);
        EXPECT_EQ(doc["devices"].size(), 2u);
        EXPECT_GT(doc["sampled_at"].get<std::string>(), previous);  // a new sample each time
        previous = doc["sampled_at"];
    }
    EXPECT_EQ(scenario.calls("query"), 3);
}

TEST(Stream, TextBlocksIntoAPipeAreApartByABlankLine) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    const auto run = scenario.run({"--once", "--interval", "0.05", "--count", "2"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto lines = lines_of(run.out);
    int headers = 0;
    for (std::size_t i = 0; i < lines.size(); ++i)
        if (lines[i].starts_with("musatop | ")) {
            ++headers;
            if (i > 0) {
                EXPECT_EQ(lines[i - 1], "") << run.out;
            }
        }
    EXPECT_EQ(headers, 2) << run.out;
    EXPECT_EQ(run.out.find('\x1b'), std::string::npos);  // no clearing into a pipe
}

// A reader that goes away ends the stream with 0; Ctrl-C is its normal end (0),
// SIGTERM gives 143 as everywhere; a stale last sample of a counted stream gives 1.
TEST(Stream, EndsOnAClosedPipeASignalOrTheCount) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    auto run = scenario.run_script(
        "set -o pipefail\n\"$1\" --json --loop 0.05 | head -n 2 > lines.txt\necho \"status=$?\"\nwc -l < "
        "lines.txt\n");
    EXPECT_EQ(run.out, "status=0\n2\n") << run.err;
    run = scenario.run_script(
        "\"$1\" --json -l 0.05 > out.txt & pid=$!\n"
        "while [ ! -s out.txt ]; do sleep 0.01; done\nkill -INT $pid; wait $pid; echo \"int=$?\"\n"
        "\"$1\" --json -l 0.05 > out2.txt & pid=$!\n"
        "while [ ! -s out2.txt ]; do sleep 0.01; done\nkill -TERM $pid; wait $pid; echo \"term=$?\"\n");
    EXPECT_EQ(run.out, "int=0\nterm=143\n") << run.err;
    scenario.set("query.rc", "3");
    scenario.set("summary.rc", "3");
    EXPECT_EQ(scenario.run({"--json", "--interval", "0.05", "--count", "2"}).exit_code, 1);
    EXPECT_EQ(scenario.run({"--count", "2"}).exit_code, 2);  // a stream of what? --once or --json
    EXPECT_EQ(scenario.run({"-l", "1"}).exit_code, 2);       // the screen refreshes by itself
}

// Python musatop 0.2.1 took --interval with --json and --once and printed one
// sample: a script or cron job written for it must end (issue 34 #5).
TEST(Stream, IntervalAloneIsOneSampleAsInThePythonTool) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    for (const char* mode : {"--json", "--once"}) {
        const auto run = scenario.run({mode, "--interval", "0.05"}, std::chrono::seconds(10));
        EXPECT_FALSE(run.timed_out) << mode;
        EXPECT_EQ(run.exit_code, 0) << mode << run.err;
    }
    const auto one = scenario.run({"--json", "--interval", "2"});
    EXPECT_EQ(one.out.front(), '{');
    EXPECT_TRUE(nlohmann::json::accept(one.out)) << one.out;  // one pretty document, not JSON Lines
    EXPECT_NE(one.out.find("\n  \""), std::string::npos);
}

// On a terminal the text is redrawn in place each sample; Ctrl-C leaves the
// terminal as it was.
TEST(Stream, WatchModeRedrawsTheTerminal) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    TmuxSession tui(scenario, {"--once", "--loop", "0.1"}, 100, 30);
    ASSERT_TRUE(tui.wait_for("GPU  NAME")) << tui.screen();
    const auto headers = [&] {
        int count = 0;
        for (const auto& line : tui.lines()) count += line.starts_with("musatop | ") ? 1 : 0;
        return count;
    };
    // Samples go on, and the screen holds one snapshot, not a scroll of them.
    ASSERT_TRUE(wait_for([&] { return scenario.calls("query") >= 3 && headers() == 1; })) << tui.screen();
    EXPECT_LE(headers(), 1) << tui.screen();
    tui.keys({"C-c"});
    ASSERT_TRUE(tui.wait_for_exit());
    EXPECT_EQ(tui.exit_code(), 0);
    EXPECT_EQ(tui.stty_before(), tui.stty_after());
}
