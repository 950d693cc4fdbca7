// The cluster view in direct mode against real `musatop serve` agents on loopback
// and nodes that fail in every way: each gets its exact state and message, and
// the good nodes are fresh, within one timeout rather than the sum of delays.
#include <gtest/gtest.h>

#include <filesystem>

#include <chrono>

#include <nlohmann/json.hpp>

#include "fake_node.hpp"
#include "musatop/cluster/direct_source.hpp"
#include "scenario.hpp"
#include "serve_process.hpp"

using namespace musatop::testing;
using namespace std::chrono_literals;
using json = nlohmann::json;

namespace {

// A fake GMI with `gpus` GPUs and these real processes on GPU 0.
void gmi_with(const Scenario& scenario, int gpus, const std::vector<pid_t>& pids) {
    scenario.set("query.out", gmi_device_json(gpus));
    std::vector<FakeProcessRow> rows;
    for (const pid_t pid : pids) rows.push_back({0, pid, "/usr/bin/sleep 300", 64});
    scenario.set("summary.out", gmi_process_table(rows));
    scenario.set("version.out", "mthreads-gmi version : 2.3.3\n");
}

std::map<std::string, json> by_address(const json& doc) {
    std::map<std::string, json> nodes;
    for (const auto& node : doc["nodes"]) nodes[node["address"].get<std::string>()] = node;
    return nodes;
}

struct Agents {
    Scenario two, four, demo;
    SleepChild sleeper;
    std::unique_ptr<ServeProcess> a, b, c;
    Agents() {
        gmi_with(two, 2, {sleeper.pid()});
        gmi_with(four, 4, {});
        a = std::make_unique<ServeProcess>(two, std::vector<std::string>{"--interval", "0.2"});
        b = std::make_unique<ServeProcess>(four, std::vector<std::string>{"--interval", "0.2"});
        c = std::make_unique<ServeProcess>(demo, std::vector<std::string>{"--interval", "0.2", "--demo"});
    }
    bool ready() const {
        for (const auto* s : {a.get(), b.get(), c.get()})
            if (!s->listening() || !wait_for([&] { return http_get(s->port(), "/healthz").status == 200; }))
                return false;
        return true;
    }
    std::string list() const {
        return "127.0.0.1:" + std::to_string(a->port()) + ",127.0.0.1:" + std::to_string(b->port()) +
               ",127.0.0.1:" + std::to_string(c->port());
    }
};

}  // namespace

TEST(ClusterDirect, EveryBadNodeGetsItsStateAndTheGoodOnesAreFresh) {
    Agents agents;
    ASSERT_TRUE(agents.ready());
    FakeNode silent(FakeNode::Behaviour::silent);
    FakeNode html(FakeNode::Behaviour::html);
    FakeNode other(FakeNode::Behaviour::other_schema);
    const std::string good_body = http_get(agents.a->port(), "/api/v1/snapshot").body;
    FakeNode slow(FakeNode::Behaviour::slow, good_body, 2s);
    const int refused = free_port();
    const std::string list = agents.list() + ",127.0.0.1:" + std::to_string(refused) + "," + silent.address() + "," +
                             html.address() + "," + other.address() + "," + slow.address();

    Scenario client;
    const auto started = std::chrono::steady_clock::now();
    const auto run = client.run({"--nodes", list, "--json", "--timeout", "1"});
    const auto took = std::chrono::steady_clock::now() - started;
    EXPECT_EQ(run.exit_code, 1) << run.err;
    EXPECT_LT(took, 1800ms);  // one timeout, not the sum of the slow ones
    const json doc = json::parse(run.out);
    EXPECT_EQ(doc["nodes"].size(), 8u);
    auto nodes = by_address(doc);
    for (const auto* agent : {agents.a.get(), agents.b.get(), agents.c.get()}) {
        const auto& node = nodes["127.0.0.1:" + std::to_string(agent->port())];
        EXPECT_EQ(node["state"], "ok") << node.dump();
        EXPECT_TRUE(node["error"].is_null());
        EXPECT_GT(node["latency_ms"].get<double>(), 0);
        EXPECT_EQ(node["snapshot"]["schema_version"], 1);
    }
    EXPECT_EQ(nodes["127.0.0.1:" + std::to_string(agents.a->port())]["snapshot"]["devices"].size(), 2u);
    EXPECT_EQ(nodes["127.0.0.1:" + std::to_string(agents.b->port())]["snapshot"]["devices"].size(), 4u);
    const auto& down = nodes["127.0.0.1:" + std::to_string(refused)];
    EXPECT_EQ(down["state"], "unreachable");
    EXPECT_EQ(down["error"], "connection refused");
    EXPECT_TRUE(down["snapshot"].is_null());
    EXPECT_EQ(nodes[silent.address()]["state"], "unreachable");
    EXPECT_EQ(nodes[silent.address()]["error"].get<std::string>().rfind("timed out after 1.0", 0), 0u);
    EXPECT_EQ(nodes[html.address()]["state"], "error");
    EXPECT_EQ(nodes[html.address()]["error"], "answered HTML, not a musatop snapshot");
    EXPECT_EQ(nodes[other.address()]["state"], "error");
    EXPECT_EQ(nodes[other.address()]["error"], "not a musatop snapshot: schema_version 2 is not 1");
    EXPECT_EQ(nodes[slow.address()]["state"], "unreachable");
    EXPECT_EQ(doc["errors"].size(), 5u);

    // With time enough, the slow node answers and is ok.
    const auto patient = client.run({"--nodes", slow.address(), "--json", "--timeout", "3"});
    EXPECT_EQ(patient.exit_code, 0) << patient.out;
    EXPECT_EQ(json::parse(patient.out)["nodes"][0]["state"], "ok");
}

TEST(ClusterDirect, FiltersOnceTextAndUsers) {
    Agents agents;
    ASSERT_TRUE(agents.ready());
    Scenario client;
    const auto text = client.run({"--nodes", agents.list(), "--once", "--show-pid"});
    EXPECT_EQ(text.exit_code, 0) << text.err << text.out;
    EXPECT_NE(text.out.find("[1] MTT-S5000-1 | 40\xc2\xb0"
                            "C,  25 % |  2048 / 81920 MB |"),
              std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find("/" + std::to_string(agents.sleeper.pid()) + "(64M)"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("alice/5000001("), std::string::npos);  // the demo agent's users
    // --user: only the GPUs with a process of the user, on every node.
    const auto alice = json::parse(client.run({"--nodes", agents.list(), "--json", "--user", "alice"}).out);
    std::size_t gpus = 0;
    for (const auto& node : alice["nodes"]) gpus += node["snapshot"]["devices"].size();
    EXPECT_EQ(gpus, 2u);  // GPUs 0 and 1 of the demo
    // -n: by the address given (hostnames are all this machine's).
    const auto one =
        json::parse(client.run({"--nodes", agents.list(), "--json", "-n", std::to_string(agents.b->port())}).out);
    ASSERT_EQ(one["nodes"].size(), 1u);
    EXPECT_EQ(one["nodes"][0]["snapshot"]["devices"].size(), 4u);
    // MUSATOP_NODES stands in for --nodes.
    const auto from_env = client.run({"--json"}, 10s, {"MUSATOP_NODES=" + agents.list()});
    EXPECT_EQ(json::parse(from_env.out)["nodes"].size(), 3u);
    // Stop one agent: it turns unreachable, the others stay ok.
    agents.b->stop(SIGTERM);
    const auto after = json::parse(client.run({"--nodes", agents.list(), "--json"}).out);
    EXPECT_EQ(after["nodes"][1]["state"], "unreachable");
    EXPECT_EQ(after["nodes"][0]["state"], "ok");
}

TEST(ClusterDirect, BadNodeListsAreUsageErrors) {
    Scenario client;
    for (const auto& [list, message] : std::vector<std::pair<std::string, std::string>>{
             {"gpu[1-", "argument --nodes: 'gpu[1-': unclosed bracket"},
             {"a,gpu:70000", "argument --nodes: 'gpu:70000': the port must be 1 to 65535"},
             {"ftp://x", "argument --nodes: 'ftp://x': only http:// and https:// are understood"},
             {" , ", "argument --nodes: no nodes given"},
             // A credential in an address is refused without being shown.
             {"http://alice:s3cret@gpu01:9499",
              "argument --nodes: 'http://…@gpu01:9499': a user or password in a node's address would show in the "
              "process list; use --node-user and --node-password-file"}}) {
        const auto run = client.run({"--nodes", list, "--json"});
        EXPECT_EQ(run.exit_code, 2) << list;
        EXPECT_EQ(run.err, "musatop: error: " + message + "\n") << list;
    }
    EXPECT_EQ(client.run({"--nodes", "a", "--node-user", "u"}).exit_code, 2);  // a password file is required
    const auto missing = client.run({"--nodes", "a", "--node-user", "u", "--node-password-file", "/nonexistent"});
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_NE(missing.err.find("cannot read /nonexistent"), std::string::npos);
}

// cluster.md §4: a node that answered, but unusably, was reached: `error`, with
// what was wrong; `unreachable` is for nodes that never spoke.
TEST(ClusterDirect, AnswersThatCannotBeUsedAreErrorsNotUnreachable) {
    Scenario client;
    FakeNode cut(FakeNode::Behaviour::cut_short);
    FakeNode old(FakeNode::Behaviour::http09, R"({"schema_version": 1, "devices": []})");
    const auto run = client.run({"--nodes", cut.address() + "," + old.address(), "--json", "--timeout", "2"});
    EXPECT_EQ(run.exit_code, 1);
    const auto nodes = json::parse(run.out)["nodes"];
    EXPECT_EQ(nodes[0]["state"], "error");
    EXPECT_EQ(nodes[0]["error"], "the node closed the connection in the middle of its answer");
    EXPECT_EQ(nodes[1]["state"], "error");
    EXPECT_EQ(nodes[1]["error"], "not an HTTP answer: no status line (an HTTP/0.9 server, or not HTTP at all)");
}

// Secrets: a file others can read is refused as ssh refuses such keys; a password
// sent to an http:// node is sent in clear text, and the user is told so once.
TEST(ClusterDirect, SecretFilesMustBePrivateAndClearTextIsNamed) {
    Scenario client;
    client.set("open.pass", "s3cret\n");
    std::filesystem::permissions(client.dir() / "open.pass", std::filesystem::perms(0644));
    const std::string open_path = (client.dir() / "open.pass").string();
    for (const char* flag : {"--node-password-file", "--prometheus-password-file", "--prometheus-bearer-token-file"}) {
        std::vector<std::string> args = {"--json", flag, open_path};
        if (std::string(flag) == "--node-password-file")
            args.insert(args.end(), {"--nodes", "127.0.0.1:1", "--node-user", "u"});
        else args.insert(args.end(), {"--prometheus", "http://127.0.0.1:1"});
        if (std::string(flag) == "--prometheus-password-file") args.insert(args.end(), {"--prometheus-user", "u"});
        const auto run = client.run(args);
        EXPECT_EQ(run.exit_code, 2) << flag;
        EXPECT_EQ(run.err, "musatop: error: argument " + std::string(flag) + ": " + open_path +
                               " has mode 0644, so other users can read or change it; make it private (chmod 600 " +
                               open_path + ")\n");
    }
    client.set_secret("private.pass", "s3cret\n");
    const auto clear =
        client.run({"--nodes", "127.0.0.1:1,https://127.0.0.1:2,127.0.0.1:3", "--json", "--timeout", "1", "--node-user",
                    "u", "--node-password-file", (client.dir() / "private.pass").string()});
    EXPECT_EQ(clear.exit_code, 1);                                     // the nodes are down; the run goes on
    EXPECT_EQ(clear.err.find("warning"), clear.err.rfind("warning"));  // once
    EXPECT_NE(clear.err.find("musatop: warning: --node-user sends its password unencrypted to 2 http:// nodes"),
              std::string::npos)
        << clear.err;
    const auto tls_only = client.run({"--nodes", "https://127.0.0.1:2", "--json", "--timeout", "1", "--node-user", "u",
                                      "--node-password-file", (client.dir() / "private.pass").string()});
    EXPECT_EQ(tls_only.err.find("warning"), std::string::npos) << tls_only.err;
}

TEST(ClusterDirect, TwentyRoundsASecondAndASlowNodeIsNeverAskedTwice) {
    Scenario scenario;
    gmi_with(scenario, 2, {});
    ServeProcess fast(scenario, {"--interval", "0.05"});
    ASSERT_TRUE(fast.listening());
    ASSERT_TRUE(wait_for([&] { return http_get(fast.port(), "/healthz").status == 200; }));
    FakeNode slow(FakeNode::Behaviour::slow, http_get(fast.port(), "/api/v1/snapshot").body, 2s);
    const auto nodes =
        musatop::cluster::parse_node_list("127.0.0.1:" + std::to_string(fast.port()) + "," + slow.address());
    ASSERT_TRUE(nodes.ok());
    musatop::cluster::FetchSettings settings;
    settings.timeout = musatop::Seconds(5);
    musatop::cluster::ClusterSampler sampler(
        std::make_unique<musatop::cluster::DirectSource>(nodes.value(), settings, musatop::Seconds(10)),
        musatop::Seconds(0.05));
    const auto started = std::chrono::steady_clock::now();
    sampler.start();
    // 20 rounds a second: 20 rounds take about a second, never less than 0.95 s.
    ASSERT_TRUE(wait_for([&] { return sampler.revision() >= 20; }, 10s, 5ms));
    const auto took = std::chrono::steady_clock::now() - started;
    EXPECT_GE(took, 950ms);
    RecordProperty("seconds_for_20_rounds", std::to_string(std::chrono::duration<double>(took).count()));
    const auto cluster = sampler.latest();
    ASSERT_TRUE(cluster);
    EXPECT_EQ(cluster->nodes[0].state, musatop::cluster::NodeState::ok);
    EXPECT_EQ(slow.requests(), 1);  // still answering its first request: not asked again
    ASSERT_TRUE(wait_for([&] { return sampler.latest()->nodes[1].state == musatop::cluster::NodeState::ok; }, 10s));
}
