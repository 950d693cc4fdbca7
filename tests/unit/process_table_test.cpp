#include <gtest/gtest.h>

#include "musatop/collection/gmi/process_table.hpp"
#include "test_support.hpp"

using namespace musatop::gmi;
using musatop::testing::fixture;

namespace {

std::vector<ProcessRow> rows_of(const std::string& text) {
    auto result = parse_process_table(text);
    EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error());
    return result.ok() ? result.value() : std::vector<ProcessRow>{};
}

std::string error_of(const std::string& text) {
    auto result = parse_process_table(text);
    EXPECT_FALSE(result.ok()) << text;
    return result.ok() ? "" : result.error();
}

const std::string header = "Processes:\nID   PID   Process name   GPU Memory\n     Usage\n";

}  // namespace

TEST(ProcessTable, RealX10000Layout) {
    const auto rows = rows_of(fixture("gmi_x10000_process.txt"));
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0], (ProcessRow{0, 12345, "/path/gpu_smoke", 116391936}));
}

TEST(ProcessTable, BoxedFixtureWithSpacesMultiGpuAndUnknownMemory) {
    const auto rows = rows_of(fixture("gmi_processes.txt"));
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0], (ProcessRow{0, 12345, "python3 train.py --name example", 1LL << 30}));
    EXPECT_EQ(rows[1], (ProcessRow{3, 12345, "python3 train.py --name example", 512LL << 20}));
    EXPECT_EQ(rows[2], (ProcessRow{3, 23456, "/usr/bin/python3", std::nullopt}));
}

TEST(ProcessTable, ExplicitlyEmpty) {
    EXPECT_TRUE(rows_of(fixture("gmi_empty.txt")).empty());
    EXPECT_TRUE(rows_of(header + "No running processes found.\n").empty());
    EXPECT_TRUE(rows_of(header + "   No running processes found\n").empty());
}

// GMI 2.3.2 on S5000 hosts in containers prints its failure where the rows go:
// its words are the error (issue 34 #2), never an empty list.
TEST(ProcessTable, GmisOwnFailureIsTheError) {
    EXPECT_EQ(error_of(header + "Failed to query running processes\n"),
              "GMI could not list the processes: Failed to query running processes");
    EXPECT_EQ(error_of("Processes:\n| Failed to query running processes |\n"),
              "GMI could not list the processes: Failed to query running processes");
}

TEST(ProcessTable, RealNarrowLayoutWithTrailingSpaces) {
    const auto rows = rows_of(fixture("002-s80-table-procs-gmi2.0.0-drv3.0.0.txt"));
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0], (ProcessRow{0, 1123, "/usr/lib/xorg/Xorg", 134LL << 20}));
    EXPECT_EQ(rows[1], (ProcessRow{0, 1361, "/usr/sbin/unity-greeter", 1LL << 20}));
}

TEST(ProcessTable, RealWideLayoutWithNoProcesses) {
    EXPECT_TRUE(rows_of(fixture("003-s5000x8-table-noprocs-gmi2.4.1-drv5.1.0.txt")).empty());
}

TEST(ProcessTable, NamesCutFromTheLeft) {
    const auto rows = rows_of(fixture("012-s80-table-procs-truncname-gmi1.14.0-drv2.7.0.txt"));
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0], (ProcessRow{0, 120, "...ird_party/bin/llama-box/llama-box", 2LL << 20}));
    EXPECT_EQ(rows[1], (ProcessRow{0, 2022, "...ird_party/bin/llama-box/llama-box", 1333LL << 20}));
}

TEST(ProcessTable, CrlfAndMissingTrailingSpaces) {
    std::string text = fixture("002-s80-table-procs-gmi2.0.0-drv3.0.0.txt");
    std::string crlf;
    for (char c : text) {
        if (c == '\n') crlf += '\r';
        crlf += c;
    }
    EXPECT_EQ(rows_of(crlf).size(), 2u);
}

TEST(ProcessTable, RowDetails) {
    auto rows = rows_of(header + "0  7  No running processes found  1.5GiB\n");
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].name, "No running processes found");
    EXPECT_EQ(rows[0].gpu_memory_bytes, 1610612736);
    rows = rows_of(header + "1  8  worker  Not Supported\n2  9  x  --\n");
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_FALSE(rows[0].gpu_memory_bytes);
    EXPECT_EQ(rows[1].name, "x");
}

TEST(ProcessTable, AnsiColourCodesAreStripped) {
    const auto rows =
        rows_of("\x1b[1mProcesses:\x1b[0m\nID PID Process name GPU Memory\n0 5 \x1b[32mapp\x1b[0m 1MiB\n");
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].name, "app");
}

TEST(ProcessTable, Errors) {
    EXPECT_EQ(error_of(""), "GMI process table is missing");
    EXPECT_EQ(error_of("Failed to initialize driver"), "GMI process table is missing");
    EXPECT_EQ(error_of("Processes:"), "GMI process table has no recognized column header");
    EXPECT_EQ(error_of("Processes:\nNo running processes found"), "GMI process table has no recognized column header");
    EXPECT_EQ(error_of(header), "GMI process table ended without rows or an empty-process message");
    EXPECT_EQ(error_of(header + "bad row\n"), "GMI process table contains an unrecognized row");
    EXPECT_EQ(error_of(header + "0 12 app 12\n"), "GMI process table contains an unrecognized row");
    EXPECT_EQ(error_of("Processes:\n0 12 app 1MiB\n"), "GMI process table has no recognized column header");
    EXPECT_EQ(error_of(header + "0 0 app 1MiB\n"), "GMI process table contains an invalid or duplicate process");
    EXPECT_EQ(error_of(header + "0 5 app 1MiB\n0 5 app 1MiB\n"),
              "GMI process table contains an invalid or duplicate process");
    EXPECT_EQ(error_of(header + "0 5 app 1MiB\nNo running processes found\n"),
              "GMI process table contradicts its empty-process message");
}

TEST(ProcessTable, TruncatedRealTableIsAnError) {
    // A capture cut inside the first row (gmi 1.8.2 paste) and one cut before the rule.
    std::string text = fixture("002-s80-table-procs-gmi2.0.0-drv3.0.0.txt");
    EXPECT_EQ(error_of(text.substr(0, text.find("/usr/lib/xorg") + 6)),
              "GMI process table contains an unrecognized row");
    EXPECT_EQ(error_of(text.substr(0, text.find("0    1361"))),
              "GMI process table is truncated: no closing rule after the last row");
}
