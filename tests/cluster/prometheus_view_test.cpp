// Prometheus mode read from Prometheus' answers: instances, staleness, unknown
// values, the targets' scrape interval and errors, durations, and hostile answers.
#include <gtest/gtest.h>

#include "musatop/cluster/prometheus_source.hpp"
#include "musatop/model/gpu_free.hpp"

using namespace musatop;
using namespace musatop::cluster;

TEST(PrometheusView, InstancesFromOneAnswer) {
    const WallTime now(std::chrono::seconds(1800000100));
    const std::string answer = R"({"status":"success","data":{"resultType":"vector","result":[
      {"metric":{"__name__":"up","instance":"b:9499","job":"musatop"},"value":[1800000100,"1"]},
      {"metric":{"__name__":"musatop_host_info","instance":"b:9499","hostname":"gpu-b","driver_version":"3.3.8",
                 "gmi_version":"","musa_version":""},"value":[1800000100,"1"]},
      {"metric":{"__name__":"musatop_collect_timestamp_seconds","instance":"b:9499","source":"devices"},
       "value":[1800000100,"1800000099.5"]},
      {"metric":{"__name__":"musatop_gpu_info","instance":"b:9499","gpu":"1","uuid":"u1","name":"MTT S4000",
                 "bus_id":""},"value":[1800000100,"1"]},
      {"metric":{"__name__":"musatop_gpu_utilization_ratio","instance":"b:9499","gpu":"1","uuid":"u1"},
       "value":[1800000100,"0.42"]},
      {"metric":{"__name__":"musatop_gpu_memory_used_bytes","instance":"b:9499","gpu":"1","uuid":"u1"},
       "value":[1800000100,"1073741824"]},
      {"metric":{"__name__":"musatop_gpu_processes","instance":"b:9499","gpu":"1","uuid":"u1"},
       "value":[1800000100,"2"]},
      {"metric":{"__name__":"up","instance":"a:9499","job":"musatop"},"value":[1800000100,"0"]},
      {"metric":{"__name__":"up","instance":"c:9499","job":"musatop"},"value":[1800000100,"1"]},
      {"metric":{"__name__":"musatop_collect_timestamp_seconds","instance":"c:9499","source":"devices"},
       "value":[1800000100,"1800000000"]},
      {"metric":{"__name__":"musatop_gpu_info","instance":"c:9499","gpu":"0","uuid":"","name":"x","bus_id":""},
       "value":[1800000100,"1"]}
    ]}})";
    const auto cluster = cluster_from_prometheus(answer, now, Seconds(1), {{"a:9499", "connection refused"}});
    ASSERT_TRUE(cluster.ok()) << cluster.error();
    ASSERT_EQ(cluster->nodes.size(), 3u);  // ordered by instance
    EXPECT_EQ(cluster->source, ClusterOrigin::prometheus);
    EXPECT_EQ(cluster->nodes[0].state, NodeState::unreachable);
    EXPECT_EQ(cluster->nodes[0].error, "Prometheus cannot scrape it: connection refused");
    const NodeView& b = cluster->nodes[1];
    EXPECT_EQ(b.state, NodeState::ok);
    EXPECT_EQ(b.hostname, "gpu-b");
    ASSERT_EQ(b.snapshot->devices.size(), 1u);
    EXPECT_EQ(b.snapshot->devices[0].index, 1);
    EXPECT_EQ(b.snapshot->devices[0].name, "MTT S4000");
    EXPECT_DOUBLE_EQ(*b.snapshot->devices[0].gpu_utilization_percent, 42.0);
    EXPECT_EQ(b.snapshot->devices[0].memory_used_bytes, 1LL << 30);
    EXPECT_FALSE(b.snapshot->devices[0].temperature_c);  // an omitted series stays unknown
    EXPECT_EQ(b.snapshot->driver_version, "3.3.8");
    EXPECT_FALSE(b.snapshot->gmi_version);
    EXPECT_EQ(cluster->nodes[2].state, NodeState::stale);  // 100 s old at a 1 s scrape interval
    EXPECT_EQ(cluster->nodes[2].error, "its data is 100 s old (more than 3 scrape intervals)");
    // b counts two processes but exports none: a hint on b, and the note for all.
    EXPECT_EQ(b.hint, "its processes are not exported (musatop serve --process-metrics)");
    EXPECT_TRUE(b.snapshot->processes_stale);  // unknown, not "no processes"
    // ...yet its count says GPU 1 is busy, never free (issue 34 #1).
    EXPECT_EQ(b.snapshot->devices[0].process_count_reported, 2);
    EXPECT_EQ(gpu_is_free(b.snapshot->devices[0], *b.snapshot, FreeRule{}), false);
    EXPECT_FALSE(cluster->nodes[2].hint);  // c counts none: nothing to export
    EXPECT_TRUE(cluster->note);
    EXPECT_FALSE(cluster_from_prometheus("<html>", now, Seconds(1), {}).ok());
    const auto refused = cluster_from_prometheus(R"({"status":"error","error":"bad query"})", now, Seconds(1), {});
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error(), "Prometheus: bad query");
}

// Prometheus writes NaN and infinities as strings; they and values no GPU has are
// unknown, never a number on screen.
TEST(PrometheusView, NaNInfinitiesAndAbsurdValuesAreUnknown) {
    const WallTime now(std::chrono::seconds(1800000100));
    const std::string answer = R"({"status":"success","data":{"resultType":"vector","result":[
      {"metric":{"__name__":"up","instance":"b:9499","job":"musatop"},"value":[1800000100,"1"]},
      {"metric":{"__name__":"musatop_collect_timestamp_seconds","instance":"b:9499","source":"devices"},
       "value":[1800000100,"1800000099.5"]},
      {"metric":{"__name__":"musatop_gpu_info","instance":"b:9499","gpu":"0","uuid":"u0","name":"x","bus_id":""},
       "value":[1800000100,"1"]},
      {"metric":{"__name__":"musatop_gpu_utilization_ratio","instance":"b:9499","gpu":"0","uuid":"u0"},
       "value":[1800000100,"NaN"]},
      {"metric":{"__name__":"musatop_gpu_memory_used_bytes","instance":"b:9499","gpu":"0","uuid":"u0"},
       "value":[1800000100,"+Inf"]},
      {"metric":{"__name__":"musatop_gpu_memory_total_bytes","instance":"b:9499","gpu":"0","uuid":"u0"},
       "value":[1800000100,"9.3e18"]},
      {"metric":{"__name__":"musatop_gpu_temperature_celsius","instance":"b:9499","gpu":"0","uuid":"u0"},
       "value":[1800000100,"-1e300"]},
      {"metric":{"__name__":"musatop_gpu_power_watts","instance":"b:9499","gpu":"0","uuid":"u0"},
       "value":[1800000100,"300"]}
    ]}})";
    const auto cluster = cluster_from_prometheus(answer, now, Seconds(1), {});
    ASSERT_TRUE(cluster.ok()) << cluster.error();
    ASSERT_EQ(cluster->nodes.size(), 1u);
    const Device& d = cluster->nodes[0].snapshot->devices.at(0);
    EXPECT_FALSE(d.gpu_utilization_percent);
    EXPECT_FALSE(d.memory_used_bytes);
    EXPECT_FALSE(d.memory_total_bytes);
    EXPECT_FALSE(d.temperature_c);
    EXPECT_EQ(d.power_draw_w, 300);
}

TEST(PrometheusView, TargetsGiveTheScrapeIntervalAndLastErrors) {
    const auto info = parse_targets(R"({"status":"success","data":{"activeTargets":[
        {"labels":{"instance":"a:9499","job":"musatop"},"scrapeInterval":"15s","lastError":"connection refused"},
        {"labels":{"instance":"x:9100","job":"node"},"scrapeInterval":"1m","lastError":""}]}})",
                                    "musatop");
    ASSERT_TRUE(info.scrape_interval);
    EXPECT_EQ(*info.scrape_interval, Seconds(15));
    EXPECT_EQ(info.last_errors.at("a:9499"), "connection refused");
    EXPECT_FALSE(info.last_errors.count("x:9100"));
    EXPECT_FALSE(parse_targets("nonsense", "musatop").scrape_interval);
    // Found by fuzz_cluster_answers: answers without the expected members.
    for (const char* odd : {"{}", R"({"data":1})", R"({"data":{"activeTargets":[1,{"labels":2}]}})"})
        EXPECT_FALSE(parse_targets(odd, "musatop").scrape_interval) << odd;
    for (const char* odd : {"{}", R"({"status":"success"})",
                            R"({"status":"success","data":{"result":[1,{"metric":3}]}})", R"({"status":7,"error":[]})"})
        (void)cluster_from_prometheus(odd, WallTime{}, Seconds(1), {});
}

TEST(PrometheusView, DurationsAsPrometheusWritesThem) {
    using musatop::cluster::parse_prometheus_duration;
    EXPECT_EQ(parse_prometheus_duration("15s"), Seconds(15));
    EXPECT_EQ(parse_prometheus_duration("500ms"), Seconds(0.5));  // once read as 500 minutes
    EXPECT_EQ(parse_prometheus_duration("1m30s"), Seconds(90));   // once read as 60 s
    EXPECT_EQ(parse_prometheus_duration("1h"), Seconds(3600));
    EXPECT_EQ(parse_prometheus_duration("1d2h"), Seconds(93600));
    for (const char* bad : {"", "s", "15", "1.5s", "15x", "-1s", "1m 30s"})
        EXPECT_FALSE(parse_prometheus_duration(bad)) << bad;
}

TEST(PrometheusView, OtherResultTypesLongErrorsAndHostileVolumesAreErrors) {
    const WallTime now(std::chrono::seconds(1800000100));
    for (const char* type : {"matrix", "scalar", "string"}) {
        const auto view = cluster_from_prometheus(
            std::string(R"({"status":"success","data":{"resultType":")") + type + R"(","result":[]}})", now,
            Seconds(15), {});
        ASSERT_FALSE(view.ok()) << type;
        EXPECT_NE(view.error().find("not the vector"), std::string::npos) << view.error();
    }
    const auto long_error = cluster_from_prometheus(
        R"({"status":"error","error":")" + std::string(1 << 20, 'e') + R"("})", now, Seconds(15), {});
    ASSERT_FALSE(long_error.ok());
    EXPECT_LT(long_error.error().size(), 300u);
    // 20,000 process series on one instance: linear work, and past the cap the node is an error.
    std::string answer = R"({"status":"success","data":{"resultType":"vector","result":[)";
    answer += R"({"metric":{"__name__":"up","instance":"a:9499","job":"musatop"},"value":[1800000100,"1"]})";
    for (int pid = 0; pid < 20000; ++pid)
        answer += R"(,{"metric":{"__name__":"musatop_process_gpu_memory_bytes","instance":"a:9499","gpu":"0","pid":")" +
                  std::to_string(pid) + R"(","user":"u"},"value":[1800000100,"1024"]})";
    answer += "]}}";
    const auto crowded = cluster_from_prometheus(answer, now, Seconds(15), {});
    ASSERT_TRUE(crowded.ok()) << crowded.error();
    ASSERT_EQ(crowded->nodes.size(), 1u);
    EXPECT_EQ(crowded->nodes[0].state, NodeState::error);
    EXPECT_EQ(crowded->nodes[0].error, "its series exceed the view's caps: more than 16384 process rows");
}
