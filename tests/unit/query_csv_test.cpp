// The query table's formatting (output/query_csv.hpp): nvidia-smi's units and
// rounding, [N/A], aliases, quoting of hostile text.
#include <gtest/gtest.h>

#include "musatop/output/query_csv.hpp"

using namespace musatop;
using namespace musatop::query;

TEST(QueryCsv, ValuesAsNvidiaSmiPrintsThem) {
    Snapshot s;
    Device d;
    d.index = 2;
    d.name = "MTT S5000, \"rev\" \x1b[2J";
    d.gpu_utilization_percent = 41.6;
    d.power_draw_w = 367.494;
    d.memory_used_bytes = (1024LL << 20) + 5;
    s.devices = {d};
    const auto spec = parse_query(Kind::gpu, "index, gpu_name,utilization.gpu,power.draw,memory.used,fan.speed", "csv");
    ASSERT_TRUE(spec.ok()) << spec.error();
    EXPECT_EQ(query_header(*spec),
              "index, name, utilization.gpu [%], power.draw [W], memory.used [MiB], fan.speed [%]\n");
    EXPECT_EQ(query_rows(*spec, s), "2, \"MTT S5000, \"\"rev\"\"  [2J\", 42 %, 367.49 W, 1024 MiB, [N/A]\n");
    const auto bare = parse_query(Kind::gpu, "utilization.gpu,power.draw", "csv,nounits,noheader");
    ASSERT_TRUE(bare.ok());
    EXPECT_FALSE(bare->header);
    EXPECT_EQ(query_rows(*bare, s), "42, 367.49\n");
    // A name a spreadsheet would take for a formula is text again.
    const auto names = parse_query(Kind::gpu, "name", "csv,noheader");
    ASSERT_TRUE(names.ok());
    for (const auto& [name, cell] : std::vector<std::pair<std::string, std::string>>{
             {"=HYPERLINK(\"http://x\")", "\"'=HYPERLINK(\"\"http://x\"\")\"\n"},
             {"+1", "'+1\n"},
             {"-2", "'-2\n"},
             {"@SUM(A1)", "'@SUM(A1)\n"},
             {"a=b", "a=b\n"}}) {
        s.devices[0].name = name;
        EXPECT_EQ(query_rows(*names, s), cell) << name;
    }
}

TEST(QueryCsv, UnknownFieldsAndFormatsAreNamed) {
    EXPECT_EQ(parse_query(Kind::gpu, "index,ecc.errors", "csv").error(),
              "argument --query-gpu: field \"ecc.errors\" is not a valid field to query (docs/query.md lists them)");
    EXPECT_EQ(
        parse_query(Kind::compute_apps, "pid,index", "csv").error(),
        "argument --query-compute-apps: field \"index\" is not a valid field to query (docs/query.md lists them)");
    EXPECT_EQ(parse_query(Kind::gpu, "index", "csv,json").error(),
              "argument --format: \"json\" is not csv, noheader or nounits");
    EXPECT_FALSE(parse_query(Kind::gpu, " , ", "csv").ok());
    EXPECT_FALSE(parse_query(Kind::gpu, "index", "noheader").ok());
    EXPECT_EQ(field_names(Kind::compute_apps).size(), 5u);
}
