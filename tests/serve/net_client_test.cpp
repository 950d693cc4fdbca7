// The net layer's client against real agents on loopback, over http:// and
// https:// alike: rounds answered and conditional (304, the document kept), dead
// and silent nodes never delaying the others, one list mixing both schemes, and
// Prometheus mode through an http proxy and a CONNECT tunnel.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "certificates.hpp"
#include "fake_node.hpp"
#include "fake_proxy.hpp"
#include "musatop/cluster/direct_source.hpp"
#include "serve_process.hpp"

using namespace musatop::testing;
using namespace musatop::cluster;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

// An agent over the reference fixtures that samples once a minute (one frame for
// a test), with TLS when asked.
struct Agent {
    Scenario scenario;
    std::unique_ptr<ServeProcess> serve;
    bool tls;
    explicit Agent(bool with_tls) : tls(with_tls) {
        scenario.use_reference_fixtures();
        std::vector<std::string> args = {"--interval", "60"};
        if (tls) {
            if (!make_certificate(scenario)) return;
            scenario.set("web.yml", "tls_server_config:\n  cert_file: tls.crt\n  key_file: tls.key\n");
            args.insert(args.end(), {"--web-config-file", (scenario.dir() / "web.yml").string()});
        }
        serve = std::make_unique<ServeProcess>(scenario, args);
    }
    bool ready() const {
        if (!serve || !serve->listening()) return false;
        return wait_for([&] {
            return (tls ? https_get(serve->port(), "/healthz", ca()) : http_get(serve->port(), "/healthz")).status ==
                   200;
        });
    }
    std::string node() const { return (tls ? "https://127.0.0.1:" : "127.0.0.1:") + std::to_string(serve->port()); }
    std::string ca() const { return (scenario.dir() / "tls.crt").string(); }
};

FetchSettings settings_for(const Agent& agent) {
    FetchSettings settings;
    settings.timeout = musatop::Seconds(1);
    if (agent.tls) settings.ca_file = agent.ca();
    return settings;
}

class NodeSchemes : public ::testing::TestWithParam<bool> {};

}  // namespace

TEST_P(NodeSchemes, RoundsAreConditionalAndKeepTheDocument) {
    Agent agent(GetParam());
    ASSERT_TRUE(agent.ready());
    const auto nodes = parse_node_list(agent.node());
    ASSERT_TRUE(nodes.ok());
    const auto client = make_node_client(nodes.value(), settings_for(agent));
    std::vector<FetchOutcome> seen;
    for (int round = 0; round < 3; ++round)
        client->round(std::chrono::steady_clock::now() + 5s, musatop::CancelToken{},
                      [&](std::size_t, FetchOutcome& outcome) { seen.push_back(outcome); });
    ASSERT_EQ(seen.size(), 3u);
    EXPECT_EQ(seen[0].http_status, 200) << seen[0].failure;
    EXPECT_FALSE(seen[0].etag.empty());
    EXPECT_GT(seen[0].body.size(), 1000u);
    for (int i : {1, 2}) {  // the same frame: no body moved
        EXPECT_EQ(seen[i].http_status, 304) << seen[i].failure;
        EXPECT_TRUE(seen[i].body.empty());
    }

    // The source keeps the node's document across 304s: the very same snapshot.
    DirectSource source(nodes.value(), settings_for(agent), musatop::Seconds(10));
    const auto first = source.round(std::chrono::steady_clock::now() + 5s, musatop::CancelToken{});
    const auto second = source.round(std::chrono::steady_clock::now() + 5s, musatop::CancelToken{});
    ASSERT_EQ(first.nodes.at(0).state, NodeState::ok) << first.nodes[0].error.value_or("");
    EXPECT_EQ(second.nodes.at(0).state, NodeState::ok) << second.nodes[0].error.value_or("");
    EXPECT_EQ(first.nodes[0].snapshot, second.nodes[0].snapshot);
}

TEST_P(NodeSchemes, DeadAndSilentNodesNeverDelayTheOthers) {
    Agent agent(GetParam());
    ASSERT_TRUE(agent.ready());
    FakeNode silent(FakeNode::Behaviour::silent);
    const std::string scheme = agent.tls ? "https://" : "";
    const auto nodes = parse_node_list(agent.node() + "," + scheme + silent.address() + "," + scheme +
                                       "127.0.0.1:" + std::to_string(free_port()));
    ASSERT_TRUE(nodes.ok());
    const auto client = make_node_client(nodes.value(), settings_for(agent));
    std::vector<FetchOutcome> outcomes(3);
    std::vector<double> finished_after(3);
    const auto begun = std::chrono::steady_clock::now();
    client->round(begun + 5s, musatop::CancelToken{}, [&](std::size_t node, FetchOutcome& outcome) {
        outcomes.at(node) = outcome;
        finished_after.at(node) = std::chrono::duration<double>(std::chrono::steady_clock::now() - begun).count();
    });
    EXPECT_EQ(outcomes[0].http_status, 200) << outcomes[0].failure;
    EXPECT_LT(finished_after[0], 0.5);  // not held up by the silent node's second
    EXPECT_EQ(outcomes[1].failure.rfind("timed out after 1.", 0), 0u) << outcomes[1].failure;
    EXPECT_EQ(outcomes[2].failure, "connection refused");
    EXPECT_EQ(client->in_flight(), 0u);
}

TEST_P(NodeSchemes, TheBinaryShowsTheNode) {
    Agent agent(GetParam());
    ASSERT_TRUE(agent.ready());
    std::vector<std::string> args = {"--nodes", agent.node(), "--json"};
    if (agent.tls) args.insert(args.end(), {"--node-ca", agent.ca()});
    const auto run = agent.scenario.run(args);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto node = json::parse(run.out)["nodes"][0];
    EXPECT_EQ(node["state"], "ok") << node.dump();
    EXPECT_EQ(node["snapshot"]["schema_version"], 1);
}

INSTANTIATE_TEST_SUITE_P(HttpAndHttps, NodeSchemes, ::testing::Values(false, true),
                         [](const auto& scheme) { return scheme.param ? "https" : "http"; });

TEST(NetClient, OneListMixesHttpAndHttpsNodes) {
    Agent plain(false), tls(true);
    ASSERT_TRUE(plain.ready());
    ASSERT_TRUE(tls.ready());
    const auto run = tls.scenario.run({"--nodes", plain.node() + "," + tls.node(), "--node-ca", tls.ca(), "--json"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto nodes = json::parse(run.out)["nodes"];
    ASSERT_EQ(nodes.size(), 2u);
    for (const auto& node : nodes) EXPECT_EQ(node["state"], "ok") << node.dump();
}

TEST(NetClient, PrometheusGoesThroughHttpProxyUnlessNoProxySaysOtherwise) {
    // The agent stands in for Prometheus: it refuses the query's form body with 413,
    // which is enough to see that the request reached it and by which way.
    Agent store(false);
    ASSERT_TRUE(store.ready());
    FakeProxy proxy;
    const std::string url = "http://127.0.0.1:" + std::to_string(store.serve->port());
    const auto ask = [&](const std::vector<std::string>& env) {
        const auto run = store.scenario.run({"--prometheus", url, "--json"}, 20s, env);
        return json::parse(run.out, nullptr, false);
    };
    const auto proxied = ask({"http_proxy=" + proxy.url()});
    EXPECT_NE(proxied.dump().find("HTTP status 413"), std::string::npos) << proxied.dump();
    const auto lines = proxy.request_lines();  // the first request of each connection to the proxy
    ASSERT_FALSE(lines.empty());
    EXPECT_EQ(lines.front(), "GET " + url + "/api/v1/targets?state=active HTTP/1.1");  // the absolute form
    const std::size_t before = lines.size();
    ask({"http_proxy=" + proxy.url(), "no_proxy=localhost,127.0.0.1"});
    ask({"HTTP_PROXY=" + proxy.url()});  // capitals are ignored for http, as curl does
    EXPECT_EQ(proxy.request_lines().size(), before);
    const auto dead = ask({"http_proxy=http://127.0.0.1:" + std::to_string(free_port())});
    EXPECT_NE(dead.dump().find("connection refused"), std::string::npos) << dead.dump();
}

TEST(NetClient, HttpsPrometheusThroughAConnectTunnel) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    ASSERT_TRUE(protect(scenario));  // TLS and basic auth
    ServeProcess store(scenario, {"--interval", "60", "--web-config-file", (scenario.dir() / "web.yml").string()});
    ASSERT_TRUE(store.listening()) << store.log();
    FakeProxy proxy;
    const std::string authority = "127.0.0.1:" + std::to_string(store.port());
    const auto run = scenario.run(
        {"--prometheus", "https://" + authority, "--prometheus-ca", (scenario.dir() / "tls.crt").string(), "--json"},
        20s, {"https_proxy=" + proxy.url()});
    EXPECT_NE(run.out.find("HTTP status 413"), std::string::npos) << run.out << run.err;
    const auto lines = proxy.request_lines();
    ASSERT_FALSE(lines.empty());
    EXPECT_EQ(lines.front(), "CONNECT " + authority + " HTTP/1.1");
    // The TLS handshake ran through the tunnel: the proxy never saw the request itself.
    for (const auto& head : proxy.heads()) EXPECT_EQ(head.find("/api/v1/query"), std::string::npos) << head;
}
