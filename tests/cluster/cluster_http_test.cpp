// Direct mode's own HTTP client against a real agent and a node that answers in
// chunks and then drops the connection, as servers drop idle ones: every round
// answered (the request sent again on a new connection), a name resolved and
// its addresses tried in turn (where localhost is also ::1, the agent listens
// only on 127.0.0.1).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "fake_node.hpp"
#include "musatop/cluster/direct_source.hpp"
#include "scenario.hpp"
#include "serve_process.hpp"

using namespace musatop::testing;
using namespace musatop::cluster;
using namespace std::chrono_literals;

namespace {

// An agent on loopback over a fake GMI with `gpus` GPUs and no process.
struct Agent {
    Scenario scenario;
    std::unique_ptr<ServeProcess> serve;
    explicit Agent(int gpus) {
        scenario.set("query.out", gmi_device_json(gpus));
        scenario.set("summary.out", gmi_process_table({}));
        scenario.set("version.out", "mthreads-gmi version : 2.3.3\n");
        serve = std::make_unique<ServeProcess>(scenario, std::vector<std::string>{"--interval", "0.2"});
    }
    bool ready() const {
        return serve->listening() && wait_for([&] { return http_get(serve->port(), "/healthz").status == 200; });
    }
    int port() const { return serve->port(); }
};

}  // namespace

TEST(ClusterHttp, ChunksReconnectsAndEveryAddressOfAName) {
    Agent agent(2);
    ASSERT_TRUE(agent.ready());
    const std::string snapshot = http_get(agent.port(), "/api/v1/snapshot").body;
    FakeNode forgetful(FakeNode::Behaviour::forgetful, snapshot);
    const auto nodes = parse_node_list(forgetful.address() + ",localhost:" + std::to_string(agent.port()));
    ASSERT_TRUE(nodes.ok());

    const auto fetcher = make_node_client(nodes.value(), FetchSettings{});
    for (int round = 1; round <= 3; ++round) {
        std::vector<FetchOutcome> outcomes(2);
        fetcher->round(std::chrono::steady_clock::now() + 10s, musatop::CancelToken{},
                       [&](std::size_t node, FetchOutcome& outcome) {
                           outcomes.at(node) = outcome;
                           outcome.etag.clear();  // every round whole: the agent's frame may not change between them
                       });
        EXPECT_EQ(fetcher->in_flight(), 0u);
        for (const auto& outcome : outcomes) {
            EXPECT_TRUE(outcome.answered) << "round " << round << ": " << outcome.failure;
            EXPECT_EQ(outcome.http_status, 200);
            EXPECT_GT(outcome.seconds, 0);
        }
        EXPECT_EQ(outcomes[0].body, snapshot) << "round " << round;
        const auto agent_answer = nlohmann::json::parse(outcomes[1].body, nullptr, false);
        ASSERT_TRUE(agent_answer.is_object()) << outcomes[1].body;
        EXPECT_EQ(agent_answer["schema_version"], 1);
    }
    EXPECT_EQ(forgetful.requests(), 3);  // a new connection each round, and no request lost

    // The same through the binary, by name.
    Scenario client;
    const auto run = client.run({"--nodes", "localhost:" + std::to_string(agent.port()), "--json"});
    EXPECT_EQ(run.exit_code, 0) << run.err << run.out;
    EXPECT_EQ(nlohmann::json::parse(run.out)["nodes"][0]["state"], "ok") << run.out;
}

TEST(ClusterHttp, AnUnresolvableNameIsNamedAndTheOthersAnswer) {
    Agent agent(1);
    ASSERT_TRUE(agent.ready());
    // "invalid" is reserved (RFC 2606): no resolver answers it, some after a delay.
    const auto nodes = parse_node_list("127.0.0.1:" + std::to_string(agent.port()) + ",gpu01.invalid");
    ASSERT_TRUE(nodes.ok());
    FetchSettings settings;
    settings.timeout = musatop::Seconds(3);
    const auto fetcher = make_node_client(nodes.value(), settings);
    std::vector<FetchOutcome> outcomes(2);
    fetcher->round(std::chrono::steady_clock::now() + 10s, musatop::CancelToken{},
                   [&](std::size_t node, FetchOutcome& outcome) { outcomes.at(node) = outcome; });
    EXPECT_TRUE(outcomes[0].answered) << outcomes[0].failure;
    EXPECT_FALSE(outcomes[1].answered);
    EXPECT_TRUE(outcomes[1].failure == "cannot resolve the host name" ||
                outcomes[1].failure.rfind("timed out after 3", 0) == 0)
        << outcomes[1].failure;
}
