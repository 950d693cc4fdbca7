// Prometheus mode against a real Prometheus scraping three agents on loopback:
// the same nodes, GPUs and values as the direct view; a stopped agent turns
// unreachable with Prometheus' own reason.
#include <gtest/gtest.h>
#include <signal.h>

#include <nlohmann/json.hpp>

#include "fake_proxy.hpp"
#include "prometheus_server.hpp"
#include "serve_process.hpp"
#include "tmux_session.hpp"
#include "tui_helpers.hpp"

using namespace musatop::testing;
using namespace std::chrono_literals;
using json = nlohmann::json;

namespace {

std::map<std::string, json> nodes_of(const std::string& out) {
    std::map<std::string, json> nodes;
    const json doc = json::parse(out, nullptr, false);
    if (!doc.is_object()) return nodes;
    for (const auto& node : doc["nodes"]) nodes[node["address"].get<std::string>()] = node;
    return nodes;
}

}  // namespace

TEST(ClusterPrometheus, SameViewAsDirectAndDownAgentsAreUnreachable) {
    if (!PrometheusServer::installed()) GTEST_SKIP() << "prometheus missing (apt-get install prometheus)";
    Scenario one, two, three;
    for (auto* s : {&one, &two, &three}) s->set("version.out", "mthreads-gmi version : 2.3.3\n");
    one.set("query.out", gmi_device_json(1));
    two.set("query.out", gmi_device_json(2));
    three.set("query.out", gmi_device_json(3));
    one.set("summary.out", gmi_process_table({{0, 4300001, "python one.py", 111}}));
    two.set("summary.out", gmi_process_table({{1, 4300002, "python two.py", 222}}));
    three.set("summary.out", gmi_process_table({}));
    const std::vector<std::string> agent_args = {"--interval", "0.5", "--process-metrics=command"};
    ServeProcess a(one, agent_args), b(two, agent_args), c(three, agent_args);
    ASSERT_TRUE(a.listening() && b.listening() && c.listening());
    Scenario client;
    PrometheusServer prometheus(client, {a.port(), b.port(), c.port()});
    ASSERT_TRUE(wait_for([&] { return prometheus.first_value("count(up{job=\"musatop\"} == 1)") == "3"; }, 60s, 200ms))
        << prometheus.log();
    ASSERT_TRUE(wait_for([&] { return prometheus.first_value("count(musatop_gpu_info)") == "6"; }, 30s, 200ms));
    ASSERT_TRUE(
        wait_for([&] { return prometheus.first_value("count(musatop_process_gpu_memory_bytes)") == "2"; }, 30s, 200ms));

    const std::string list = "127.0.0.1:" + std::to_string(a.port()) + ",127.0.0.1:" + std::to_string(b.port()) +
                             ",127.0.0.1:" + std::to_string(c.port());
    const auto direct_run = client.run({"--nodes", list, "--json"});
    const auto prom_run = client.run({"--prometheus", prometheus.url(), "--json"});
    EXPECT_EQ(prom_run.exit_code, 0) << prom_run.err << prom_run.out;
    const auto direct = nodes_of(direct_run.out);
    const auto via = nodes_of(prom_run.out);
    EXPECT_EQ(json::parse(prom_run.out)["source"], "prometheus");
    ASSERT_EQ(via.size(), 3u) << prom_run.out;
    for (const auto& [address, node] : direct) {
        ASSERT_TRUE(via.count(address)) << address;
        const json& p = via.at(address);
        EXPECT_EQ(p["state"], "ok") << p.dump();
        EXPECT_EQ(p["hostname"], node["hostname"]);
        EXPECT_EQ(p["free_gpus"], node["free_gpus"]) << address;  // the same GPUs are free either way
        // The host's memory and CPU come through Prometheus too (it read "RAM N/A/N/A").
        const json& host = p["snapshot"]["host"];
        EXPECT_EQ(host["memory_total_bytes"], node["snapshot"]["host"]["memory_total_bytes"]) << host.dump();
        EXPECT_TRUE(host["memory_used_bytes"].is_number()) << host.dump();
        const json& dd = node["snapshot"]["devices"];
        const json& pd = p["snapshot"]["devices"];
        ASSERT_EQ(pd.size(), dd.size()) << address;
        for (std::size_t i = 0; i < dd.size(); ++i)
            for (const char* key : {"index", "uuid", "name", "gpu_utilization_percent", "memory_used_bytes",
                                    "memory_total_bytes", "temperature_c", "power_draw_w", "power_limit_w"})
                EXPECT_EQ(pd[i][key], dd[i][key]) << address << " GPU " << i << " " << key;
        const json& dp = node["snapshot"]["processes"];
        const json& pp = p["snapshot"]["processes"];
        ASSERT_EQ(pp.size(), dp.size()) << address;
        for (std::size_t i = 0; i < dp.size(); ++i)
            for (const char* key : {"pid", "device_index", "gpu_memory_bytes", "command"})
                EXPECT_EQ(pp[i][key], dp[i][key]) << address << " process " << i << " " << key;
    }
    const auto text = client.run({"--prometheus", prometheus.url(), "--once"});
    EXPECT_NE(text.out.find("refresh is bounded by the scrape interval"), std::string::npos) << text.out;

    // The screen asks only for what it draws; the drill-down's node gets the rest
    // (its power limit is not in the screen's query).
    {
        TmuxSession tui(client, {"--prometheus", prometheus.url(), "--interval", "0.5"}, 120, 40);
        ASSERT_TRUE(tui.wait_for("nodes 3: 3 ok")) << tui.screen();
        tui.keys({"Enter"});
        ASSERT_TRUE(tui.wait_for("(Esc: back to the cluster)")) << tui.screen();
        EXPECT_TRUE(tui.wait_for("120/300")) << tui.screen();
        tui.keys({"Escape"});
        ASSERT_TRUE(tui.wait_for("nodes 3: 3 ok")) << tui.screen();
        quit_and_check_terminal(tui);
    }

    b.stop(SIGTERM);
    const std::string down = "127.0.0.1:" + std::to_string(b.port());
    json state;
    ASSERT_TRUE(wait_for(
        [&] {
            state = nodes_of(client.run({"--prometheus", prometheus.url(), "--json"}).out)[down];
            return state.is_object() && state["state"] == "unreachable";
        },
        30s, 300ms))
        << state.dump();
    EXPECT_NE(state["error"].get<std::string>().find("Prometheus cannot scrape it: "), std::string::npos)
        << state.dump();
    EXPECT_EQ(client.run({"--prometheus", prometheus.url(), "--json"}).exit_code, 1);
}

TEST(ClusterPrometheus, APrometheusThatIsNotThereIsAnError) {
    Scenario client;
    const auto run = client.run({"--prometheus", "http://127.0.0.1:" + std::to_string(free_port()), "--json"});
    EXPECT_EQ(run.exit_code, 1);
    const json doc = json::parse(run.out);
    EXPECT_NE(doc["errors"][0].get<std::string>().find("Prometheus http://127.0.0.1:"), std::string::npos);
    EXPECT_EQ(client.run({"--prometheus", "localhost:9090", "--json"}).exit_code, 2);
}

// The stores big clusters use, stood in for by the real Prometheus behind a proxy
// that lacks /api/v1/targets (as Thanos Query does): an extra matcher, a tenant
// header from a file, and the assumed scrape interval said in the view.
TEST(ClusterPrometheus, StoresWithoutTargetsMatchersAndTenantHeaders) {
    if (!PrometheusServer::installed()) GTEST_SKIP() << "prometheus missing (apt-get install prometheus)";
    Scenario one, two;
    for (auto* s : {&one, &two}) {
        s->set("version.out", "mthreads-gmi version : 2.3.3\n");
        s->set("query.out", gmi_device_json(1));
        s->set("summary.out", gmi_process_table({}));
    }
    ServeProcess a(one, {"--interval", "0.5"}), b(two, {"--interval", "0.5"});
    ASSERT_TRUE(a.listening() && b.listening());
    Scenario client;
    PrometheusServer prometheus(client, {a.port(), b.port()});
    ASSERT_TRUE(wait_for([&] { return prometheus.first_value("count(musatop_gpu_info)") == "2"; }, 60s, 200ms))
        << prometheus.log();
    FakeProxy store("/api/v1/targets");
    client.set("headers", "# the tenant\nX-Scope-OrgID: tenant-a\n");
    const std::string node_a = "127.0.0.1:" + std::to_string(a.port());
    const std::vector<std::string> env = {"http_proxy=" + store.url(), "no_proxy="};
    const std::string headers = (client.dir() / "headers").string();
    auto run =
        client.run({"--prometheus", prometheus.url(), "--json", "--prometheus-selector", "instance=\"" + node_a + "\"",
                    "--prometheus-header-file", headers, "--prometheus-scrape-interval", "1"},
                   20s, env);
    ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
    const json doc = json::parse(run.out);
    ASSERT_EQ(doc["nodes"].size(), 1u) << run.out;  // the selector kept node A only
    EXPECT_EQ(doc["nodes"][0]["address"], node_a);
    EXPECT_NE(doc["note"].get<std::string>().find(
                  "has no /api/v1/targets: a scrape interval of 1 s is assumed (--prometheus-scrape-interval)"),
              std::string::npos)
        << doc["note"];
    bool tenant = false, targets_asked = false;
    for (const auto& head : store.heads()) {
        tenant = tenant || head.find("\r\nX-Scope-OrgID: tenant-a\r\n") != std::string::npos;
        targets_asked = targets_asked || head.find("/api/v1/targets") != std::string::npos;
    }
    EXPECT_TRUE(tenant && targets_asked);
    // Without the flag the default interval is used, and the view says that too.
    run = client.run({"--prometheus", prometheus.url(), "--once"}, 20s, env);
    EXPECT_NE(run.out.find("assumed; give the real one with --prometheus-scrape-interval"), std::string::npos)
        << run.out;
    // A selector the store would refuse is a usage error before any request.
    const auto asked = store.heads().size();
    run = client.run({"--prometheus", prometheus.url(), "--json", "--prometheus-selector", "instance=x"}, 20s, env);
    EXPECT_EQ(run.exit_code, 2);
    EXPECT_NE(run.err.find("--prometheus-selector: expected a quoted value at column 10"), std::string::npos)
        << run.err;
    EXPECT_EQ(store.heads().size(), asked);
}
