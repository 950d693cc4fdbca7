// The store options of Prometheus mode (docs/cluster.md): matchers in every
// selector, nodes grouped by another label, the header file, and their checks.
#include <gtest/gtest.h>

#include "musatop/cluster/node_list.hpp"
#include "musatop/cluster/prometheus_source.hpp"

using namespace musatop;
using namespace musatop::cluster;

TEST(PrometheusStore, MatchersGoInEverySelectorAndTheNodeLabelInTheFocus) {
    const Selection selection{"cluster=\"a\",zone!~\"b.*\"", "node"};
    const std::string query = cluster_query("musatop", RoundScope{true, "gpu07"}, selection);
    EXPECT_NE(query.find(",job=\"musatop\",cluster=\"a\",zone!~\"b.*\"}"), std::string::npos) << query;
    EXPECT_NE(query.find(",node=\"gpu07\"}"), std::string::npos) << query;  // the drill-down's node
    EXPECT_EQ(query.find("instance="), std::string::npos) << query;
}

// The direct mode's node cap holds while Prometheus' answer is read.
TEST(PrometheusStore, MoreNodesThanTheCapIsAnErrorNamingIt) {
    std::string answer = R"({"status":"success","data":{"resultType":"vector","result":[)";
    for (std::size_t i = 0; i <= musatop::cluster::kMaxNodes; ++i)
        answer += std::string(i ? "," : "") + R"({"metric":{"__name__":"up","instance":"n)" + std::to_string(i) +
                  R"(:9499"},"value":[1,"1"]})";
    answer += "]}}";
    const auto cluster =
        cluster_from_prometheus(answer, WallTime(std::chrono::seconds(100)), Seconds(15), {}, "instance");
    ASSERT_FALSE(cluster.ok());
    EXPECT_NE(cluster.error().find("more than 100000 nodes"), std::string::npos) << cluster.error();
}

TEST(PrometheusStore, NodesGroupedByAnotherLabel) {
    const WallTime now(std::chrono::seconds(1800000100));
    // Two scrape addresses of one machine (relabelled "node"), and a series without the label.
    const std::string answer = R"({"status":"success","data":{"resultType":"vector","result":[
      {"metric":{"__name__":"up","instance":"10.0.0.1:9499","node":"gpu07","job":"musatop"},"value":[1,"1"]},
      {"metric":{"__name__":"musatop_gpu_info","instance":"10.0.0.1:9499","node":"gpu07","gpu":"0","uuid":"u0",
                 "name":"S4000","bus_id":""},"value":[1,"1"]},
      {"metric":{"__name__":"musatop_gpu_info","instance":"10.0.0.2:9499","gpu":"0","uuid":"u9","name":"S4000",
                 "bus_id":""},"value":[1,"1"]}
    ]}})";
    const auto cluster = cluster_from_prometheus(answer, now, Seconds(15), {}, "node");
    ASSERT_TRUE(cluster.ok()) << cluster.error();
    ASSERT_EQ(cluster->nodes.size(), 1u);
    EXPECT_EQ(cluster->nodes[0].address, "gpu07");
    const auto targets = parse_targets(R"({"data":{"activeTargets":[{"labels":{"job":"musatop","node":"gpu07",
        "instance":"10.0.0.1:9499"},"scrapeInterval":"30s","lastError":"timeout"}]}})",
                                       "musatop", "node");
    EXPECT_EQ(targets.last_errors.at("gpu07"), "timeout");
}

TEST(PrometheusStore, SelectorsLabelsAndHeaderFilesAreChecked) {
    EXPECT_FALSE(selector_problem("cluster=\"a\""));
    EXPECT_FALSE(selector_problem(" cluster = \"a\" , zone=~\"x\\\"y\" "));
    EXPECT_EQ(selector_problem("cluster=a"), "expected a quoted value at column 9");
    EXPECT_EQ(selector_problem("cluster\"a\""), "expected =, !=, =~ or !~ at column 8");
    EXPECT_EQ(selector_problem("9x=\"a\""), "expected a label name at column 1");
    EXPECT_EQ(selector_problem("a=\"b\" c=\"d\""), "expected a comma at column 7");
    EXPECT_EQ(selector_problem("a=\"b"), "a value is not closed by a quote");
    EXPECT_EQ(selector_problem("a=\"b\"}) or vector(1"), "expected a comma at column 6");  // no query injection
    EXPECT_TRUE(valid_label_name("node_name"));
    EXPECT_FALSE(valid_label_name("node-name"));
    EXPECT_FALSE(valid_label_name(""));
    const auto headers = parse_header_lines("# tenant\r\nX-Scope-OrgID: team-a\r\n\nX-Extra:  two words \n");
    ASSERT_TRUE(headers.ok()) << headers.error();
    ASSERT_EQ(headers->size(), 2u);
    EXPECT_EQ(headers->at(0), (std::pair<std::string, std::string>{"X-Scope-OrgID", "team-a"}));
    EXPECT_EQ(headers->at(1).second, "two words");
    EXPECT_EQ(parse_header_lines("X-Scope-OrgID team-a\n").error(), "line 1 is not 'Name: value'");
    EXPECT_EQ(parse_header_lines("ok: 1\nBad Name: x\n").error(), "line 2 is not 'Name: value'");
    EXPECT_EQ(parse_header_lines("X: a\x01"
                                 "b\n")
                  .error(),
              "line 1: the value holds a control character");
}
