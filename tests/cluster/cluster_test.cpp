// The cluster view's pure parts: hostlists (checked against ClusterShell's nodeset
// where it is installed), node entries, node filters, node states and outputs.
#include <gtest/gtest.h>

#include <regex>

#include <algorithm>
#include <set>

#include <nlohmann/json.hpp>

#include "child_process.hpp"
#include "musatop/cluster/cluster_output.hpp"
#include "musatop/cluster/cluster_tracker.hpp"
#include "musatop/cluster/node_list.hpp"
#include "musatop/cluster/prometheus_source.hpp"
#include "musatop/collection/demo/demo_source.hpp"
#include "musatop/output/json_input.hpp"
#include "musatop/output/json_output.hpp"

using namespace musatop;
using namespace musatop::cluster;

namespace {

std::vector<std::string> hosts(const std::string& pattern) {
    auto expanded = expand_hostlist(pattern);
    EXPECT_TRUE(expanded.ok()) << pattern << ": " << expanded.error();
    return expanded.ok() ? expanded.value() : std::vector<std::string>{};
}

std::vector<std::string> addresses(const std::string& list) {
    const auto nodes = parse_node_list(list);
    EXPECT_TRUE(nodes.ok()) << list << ": " << nodes.error();
    std::vector<std::string> out;
    if (nodes.ok())
        for (const auto& node : nodes.value()) out.push_back(node.display());
    return out;
}

std::string list_error(const std::string& list) {
    const auto nodes = parse_node_list(list);
    return nodes.ok() ? std::string() : nodes.error();
}

std::string snapshot_json(const std::string& host, bool stale = false) {
    Snapshot s;
    s.sampled_at = WallTime(std::chrono::seconds(1800000000));
    s.host.hostname = host;
    s.devices_stale = stale;
    if (stale) s.errors = {"devices: GMI command timed out"};
    Device d;
    d.index = 0;
    d.name = "MTT S4000";
    d.temperature_c = 45;
    d.gpu_utilization_percent = 12;
    d.memory_used_bytes = 12288LL << 20;
    d.memory_total_bytes = 49152LL << 20;
    s.devices = {d, Device{}};
    s.devices[1].index = 1;
    GpuProcess p;
    p.device_index = 0;
    p.pid = 77;
    p.username = "alice";
    p.command = "python train.py";
    p.gpu_memory_bytes = 12000LL << 20;
    s.processes = {p};
    return render_json(s);
}

FetchOutcome answer(const std::string& body, long status = 200) {
    FetchOutcome o;
    o.answered = true;
    o.http_status = status;
    o.body = body;
    o.seconds = 0.00184;
    return o;
}

FetchOutcome no_answer(const std::string& why) {
    FetchOutcome o;
    o.failure = why;
    return o;
}

}  // namespace

TEST(Hostlist, ExpandsAsSlurmAndClusterShellWriteThem) {
    EXPECT_EQ(hosts("gpu[01-03,7]"), (std::vector<std::string>{"gpu01", "gpu02", "gpu03", "gpu7"}));
    EXPECT_EQ(hosts("r[1-2]n[1-2]"), (std::vector<std::string>{"r1n1", "r1n2", "r2n1", "r2n2"}));
    EXPECT_EQ(hosts("n[1-9/4]"), (std::vector<std::string>{"n1", "n5", "n9"}));
    EXPECT_EQ(hosts("n[08-10]"), (std::vector<std::string>{"n08", "n09", "n10"}));
    EXPECT_EQ(hosts("node[098-101]"), (std::vector<std::string>{"node098", "node099", "node100", "node101"}));
    EXPECT_EQ(hosts("plain"), std::vector<std::string>{"plain"});
    EXPECT_EQ(hosts("a[1]b"), std::vector<std::string>{"a1b"});
}

TEST(Hostlist, AgreesWithNodesetWhereInstalled) {
    if (::access("/usr/bin/nodeset", X_OK) != 0) GTEST_SKIP() << "clustershell's nodeset is not installed";
    for (const char* pattern : {"gpu[01-16,20]", "r[1-2]n[1-3]", "n[1-9/2]", "c[001-012/3]", "x[8-11]y",
                                "a[0-2]b[7,9]c", "node[00-03,10-12]"}) {
        const auto run =
            musatop::testing::run_child({"/usr/bin/nodeset", "-S", "\\n", "-e", pattern}, {}, std::chrono::seconds(20));
        ASSERT_EQ(run.exit_code, 0) << pattern << run.err;
        std::set<std::string> expected;
        std::size_t start = 0;
        for (std::size_t end; (end = run.out.find('\n', start)) != std::string::npos; start = end + 1)
            expected.insert(run.out.substr(start, end - start));
        const auto ours = hosts(pattern);
        EXPECT_EQ(std::set<std::string>(ours.begin(), ours.end()), expected) << pattern;
        EXPECT_EQ(ours.size(), expected.size()) << pattern;  // no duplicates either
    }
}

TEST(NodeList, EntriesPortsUrlsAndDuplicates) {
    EXPECT_EQ(addresses("gpu[01-02], gpu03:9500\ngpu01"),
              (std::vector<std::string>{"gpu01:9499", "gpu02:9499", "gpu03:9500"}));
    EXPECT_EQ(addresses("http://a:80 https://b:8443/ [::1]:9499 [fe80::1]"),
              (std::vector<std::string>{"a:80", "https://b:8443", "[::1]:9499", "[fe80::1]:9499"}));
    EXPECT_EQ(addresses("sim:[20000-20002]"), (std::vector<std::string>{"sim:20000", "sim:20001", "sim:20002"}));
    const auto nodes = parse_node_list("https://[::1]:8443");
    ASSERT_TRUE(nodes.ok());
    EXPECT_EQ(nodes->front().url("/api/v1/snapshot"), "https://[::1]:8443/api/v1/snapshot");
    const auto file = parse_nodes_file("# the rack\ngpu[1-2]  # two\n\n  gpu3:1\n");
    ASSERT_TRUE(file.ok());
    EXPECT_EQ(file->size(), 3u);
}

TEST(NodeList, EveryBadEntryIsNamed) {
    EXPECT_EQ(list_error("ok1,gpu[1-"), "'gpu[1-': unclosed bracket");
    EXPECT_EQ(list_error("gpu1]"), "'gpu1]': ']' without '['");
    EXPECT_EQ(list_error("gpu[3-1]"), "'gpu[3-1]': range 3-1 runs backwards");
    EXPECT_EQ(list_error("gpu[a-b]"), "'gpu[a-b]': 'a' is not a number");
    EXPECT_EQ(list_error("gpu[1-3/0]"), "'gpu[1-3/0]': a step must be 1 or more");
    EXPECT_EQ(list_error("gpu:0"), "'gpu:0': the port must be 1 to 65535");
    EXPECT_EQ(list_error("gpu:99999"), "'gpu:99999': the port must be 1 to 65535");
    EXPECT_EQ(list_error("ftp://gpu"), "'ftp://gpu': only http:// and https:// are understood");
    EXPECT_EQ(list_error("http://gpu/metrics"), "'http://gpu/metrics': a path is not allowed");
    EXPECT_EQ(list_error("gp\x1bu"), "'gp\x1bu': 'gp\x1bu' is not a host name");
    EXPECT_EQ(list_error("n[1-999999999]"), "'n[1-999999999]': more than 100000 hosts");
    EXPECT_EQ(list_error("[::1]x"), "'[::1]x': expected :PORT after the address");
    EXPECT_EQ(list_error("[foo:bar]"), "'[foo:bar]': 'foo:bar' in brackets is not an IPv6 address");
    // As ClusterShell: a step goes with a range, not a single number.
    EXPECT_EQ(list_error("nova[3/2]"), "'nova[3/2]': a step needs a range (3/2)");
    // Digits and dots are an IPv4 address or nothing: never looked up in DNS.
    EXPECT_EQ(list_error("127.2.300.4"), "'127.2.300.4': '127.2.300.4' is not an IPv4 address");
    EXPECT_EQ(list_error("10.0.0.[1-300]"), "'10.0.0.[1-300]': '10.0.0.256' is not an IPv4 address");
    EXPECT_TRUE(parse_node_list("10.0.0.[1-3],gpu1.example").ok());
}

TEST(NodeList, OneHundredThousandNodesAndTheirDuplicates) {
    const auto nodes = parse_node_list("n[000001-100000],n[000001-100000],n000007");
    ASSERT_TRUE(nodes.ok()) << nodes.error();
    EXPECT_EQ(nodes->size(), 100000u);
    EXPECT_EQ(nodes->back().host, "n100000");
}

TEST(NodeFilter, NamesWildcardsHostlistsAndAddresses) {
    NodeView node;
    node.address = "10.0.0.7:9499";
    node.hostname = "gpu07";
    const auto matches = [&](const std::string& text) { return NodeFilter::parse(text).value().matches(node); };
    EXPECT_TRUE(matches(""));
    EXPECT_TRUE(matches("gpu0"));  // a substring
    EXPECT_TRUE(matches("gpu0?"));
    EXPECT_TRUE(matches("gpu[05-08]"));
    EXPECT_FALSE(matches("gpu[01-06]"));
    EXPECT_TRUE(matches("cpu1,10.0.0.7"));
    EXPECT_TRUE(matches("10.0.0.*"));
    EXPECT_FALSE(matches("gpu1*"));
    EXPECT_FALSE(NodeFilter::parse("gpu[1-").ok());
}

TEST(NodeView, SharedWhenTheFiltersKeepEveryRowInOrder) {
    auto node = std::make_shared<const Snapshot>(parse_json_snapshot(snapshot_json("gpu01")).value());
    EXPECT_EQ(shared_node_view(node, ViewFilter{}), node);  // nothing to drop or reorder: no copy
    EXPECT_EQ(shared_node_view(nullptr, ViewFilter{}), nullptr);
    ViewFilter by_pid;
    by_pid.sort = SortField::pid;
    EXPECT_EQ(shared_node_view(node, by_pid), node);  // one process is in every order
    ViewFilter one_gpu;
    one_gpu.gpu_indices = std::set<std::int64_t>{1};
    const auto view = shared_node_view(node, one_gpu);
    ASSERT_NE(view, node);
    ASSERT_EQ(view->devices.size(), 1u);
    EXPECT_EQ(view->devices[0].index, 1);
    EXPECT_TRUE(view->processes.empty());
    EXPECT_EQ(node->devices.size(), 2u);  // the shared snapshot is untouched
    ViewFilter alice;
    alice.users = {"alice"};
    const auto hers = shared_node_view(node, alice);
    ASSERT_NE(hers, node);
    EXPECT_EQ(hers->devices.size(), 1u);  // only the GPU she uses
}

TEST(NodeView, ReorderedWhenTheSortDiffers) {
    Snapshot s = parse_json_snapshot(snapshot_json("gpu01")).value();
    s.processes.push_back(s.processes.front());
    s.processes[1].pid = 78;
    s.processes[1].gpu_memory_bytes = 1;  // less memory, larger PID
    auto node = std::make_shared<const Snapshot>(s);
    EXPECT_EQ(shared_node_view(node, ViewFilter{}), node);  // by GPU memory, largest first: as given
    ViewFilter reversed;
    reversed.reverse = true;
    const auto view = shared_node_view(node, reversed);
    ASSERT_NE(view, node);
    EXPECT_EQ(view->processes.front().pid, 78);
}

TEST(ClusterTracker, StatesFollowTheAnswers) {
    ClusterTracker tracker({"a:1", "b:1", "c:1", "d:1", "e:1"}, Seconds(3));
    const WallTime t0(std::chrono::seconds(1800000000));
    tracker.record(0, answer(snapshot_json("gpu-a")), t0);
    tracker.record(1, no_answer("connection refused"), t0);
    tracker.record(2, answer("<html>hello</html>"), t0);
    tracker.record(3, answer(R"({"schema_version": 2})"), t0);
    tracker.record(4, answer(snapshot_json("gpu-e", true)), t0);
    auto view = tracker.view(t0);
    EXPECT_EQ(view.nodes[0].state, NodeState::ok);
    EXPECT_EQ(view.nodes[0].hostname, "gpu-a");
    EXPECT_EQ(view.nodes[1].state, NodeState::unreachable);
    EXPECT_EQ(view.nodes[1].error, "connection refused");
    EXPECT_EQ(view.nodes[2].state, NodeState::error);
    EXPECT_EQ(view.nodes[2].error, "answered HTML, not a musatop snapshot");
    EXPECT_EQ(view.nodes[3].error, "not a musatop snapshot: schema_version 2 is not 1");
    EXPECT_EQ(view.nodes[4].state, NodeState::stale);
    EXPECT_EQ(view.nodes[4].error, "the node reports stale data: devices: GMI command timed out");
    EXPECT_FALSE(view.all_ok());
    // A good node that stops answering keeps its last snapshot, marked stale...
    tracker.record(0, no_answer("timed out after 3.0 s"), t0 + std::chrono::seconds(5));
    view = tracker.view(t0 + std::chrono::seconds(5));
    EXPECT_EQ(view.nodes[0].state, NodeState::stale);
    ASSERT_TRUE(view.nodes[0].snapshot);
    EXPECT_EQ(view.nodes[0].fetched_at, t0);
    // ...and a node whose request is still out turns stale once its data is old.
    tracker.record(0, answer(snapshot_json("gpu-a")), t0 + std::chrono::seconds(6));
    EXPECT_EQ(tracker.view(t0 + std::chrono::seconds(8)).nodes[0].state, NodeState::ok);
    const auto late = tracker.view(t0 + std::chrono::seconds(10));
    EXPECT_EQ(late.nodes[0].state, NodeState::stale);
    EXPECT_EQ(late.nodes[0].error, "no answer for 4.0 s");
    // An error answer keeps the last good snapshot for the screen.
    tracker.record(0, answer("oops", 500), t0 + std::chrono::seconds(11));
    EXPECT_EQ(tracker.view(t0 + std::chrono::seconds(11)).nodes[0].error, "HTTP status 500");
    EXPECT_TRUE(tracker.view(t0 + std::chrono::seconds(11)).nodes[0].snapshot);
    // A node that spoke, but not usably (cut short, not HTTP), was reached: an error
    // with its reason, the last good data kept; one that never spoke is unreachable.
    FetchOutcome cut = no_answer("the node closed the connection in the middle of its answer");
    cut.reached = true;
    tracker.record(0, cut, t0 + std::chrono::seconds(12));
    tracker.record(1, cut, t0 + std::chrono::seconds(12));
    view = tracker.view(t0 + std::chrono::seconds(12));
    EXPECT_EQ(view.nodes[0].state, NodeState::error);
    EXPECT_EQ(view.nodes[0].error, "the node closed the connection in the middle of its answer");
    EXPECT_TRUE(view.nodes[0].snapshot);
    EXPECT_EQ(view.nodes[1].state, NodeState::error);
}

TEST(ClusterOutput, JsonDocumentAsTheContractSays) {
    ClusterTracker tracker({"gpu01:9499", "gpu02:9499"}, Seconds(3));
    const WallTime t0(std::chrono::seconds(1800000000));
    tracker.record(0, answer(snapshot_json("gpu01")), t0);
    tracker.record(1, no_answer("connection refused"), t0);
    const auto doc = nlohmann::ordered_json::parse(render_cluster_json(tracker.view(t0), ViewFilter{}));
    std::vector<std::string> keys;
    for (const auto& item : doc.items()) keys.push_back(item.key());
    EXPECT_EQ(keys,
              (std::vector<std::string>{"schema_version", "kind", "sampled_at", "source", "nodes", "errors", "note"}));
    EXPECT_EQ(doc["kind"], "cluster");
    EXPECT_EQ(doc["source"], "direct");
    const auto& node = doc["nodes"][0];
    std::vector<std::string> node_keys;
    for (const auto& item : node.items()) node_keys.push_back(item.key());
    EXPECT_EQ(node_keys, (std::vector<std::string>{"address", "hostname", "state", "latency_ms", "error", "fetched_at",
                                                   "snapshot", "free_gpus"}));  // free_gpus appended
    EXPECT_TRUE(doc["nodes"][1]["free_gpus"].is_null());                        // never reached: unknown
    EXPECT_EQ(node["latency_ms"], 1.84);
    EXPECT_EQ(node["snapshot"]["schema_version"], 1);
    EXPECT_EQ(node["snapshot"]["devices"].size(), 2u);
    EXPECT_TRUE(doc["nodes"][1]["snapshot"].is_null());
    EXPECT_EQ(doc["errors"], nlohmann::ordered_json::parse(R"(["gpu02:9499: connection refused"])"));
}

// The cluster view's text options with one change to its GPU lines.
template <typename Change>
TextOptions with(Change change) {
    TextOptions options;
    options.style = GpustatStyle::cluster();
    change(options.style);
    return options;
}

TEST(ClusterOutput, GpustatLinesPerNode) {
    ClusterTracker tracker({"gpu01:9499", "gpu02:9499"}, Seconds(3));
    const WallTime t0(std::chrono::seconds(1800000000));
    tracker.record(0, answer(snapshot_json("gpu01")), t0);
    tracker.record(1, no_answer("connection refused"), t0);
    const std::string text = render_cluster_text(tracker.view(t0), ViewFilter{}, with([](GpustatStyle&) {}));
    EXPECT_NE(text.find("gpu01 (gpu01:9499)  "), std::string::npos) << text;
    EXPECT_NE(text.find("  1.84 ms\n"), std::string::npos) << text;
    EXPECT_NE(text.find("[0] MTT S4000 | 45\xc2\xb0"
                        "C,  12 % | 12288 / 49152 MB | alice(12000M)\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("[1] N/A       | ??\xc2\xb0"
                        "C,  ?? % |    ?? /    ?? MB |\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("gpu02:9499 (gpu02:9499)  unreachable: connection refused\n"), std::string::npos) << text;
    const std::string with_pid =
        render_cluster_text(tracker.view(t0), ViewFilter{}, with([](GpustatStyle& s) { s.show_pid = true; }));
    EXPECT_NE(with_pid.find("alice/77(12000M)"), std::string::npos);
    const std::string with_cmd =
        render_cluster_text(tracker.view(t0), ViewFilter{}, with([](GpustatStyle& s) { s.show_cmd = true; }));
    EXPECT_NE(with_cmd.find("alice:python train.py(12000M)"), std::string::npos);
    const std::string bare =
        render_cluster_text(tracker.view(t0), ViewFilter{}, with([](GpustatStyle& s) { s.no_processes = true; }));
    EXPECT_EQ(bare.find("alice"), std::string::npos);
    // On a terminal the lines are coloured as gpustat's; the text itself is the same.
    const std::string coloured =
        render_cluster_text(tracker.view(t0), ViewFilter{}, with([](GpustatStyle& s) { s.paint = Paint{true}; }));
    EXPECT_NE(coloured.find("\x1b[32m"), std::string::npos);
    EXPECT_EQ(std::regex_replace(coloured, std::regex("\x1b\\[[0-9;]*m"), ""), text);
    EXPECT_EQ(latency_text(0.84), "840 \xc2\xb5s");
    EXPECT_EQ(latency_text(2100), "2.1 s");
}

TEST(ClusterJson, TextFromNodesIsEscapedAsTheLocalJsonIs) {
    ClusterTracker tracker({"gpu\xc2\x9b"
                            "01\x7f:9499",
                            "bad\xff:9499"},
                           musatop::Seconds(10));
    const auto t0 = WallTime(std::chrono::seconds(1800000000));
    tracker.record(0, no_answer("refused\xc2\x85\x7f\xe2\x80\xae"), t0);
    tracker.record(1, no_answer("x"), t0);
    const std::string text = render_cluster_json(tracker.view(t0), ViewFilter{});
    for (const char* raw : {"\xc2\x9b", "\xc2\x85", "\xe2\x80\xae", "\xff", "\x7f"})
        EXPECT_EQ(text.find(raw), std::string::npos) << text;
    EXPECT_NE(text.find("\\u009B"), std::string::npos) << text;
    EXPECT_NE(text.find("\\u007F"), std::string::npos) << text;  // DEL too, as nlohmann's ensure_ascii
    EXPECT_NE(text.find("\\u202E"), std::string::npos) << text;
    const auto doc = nlohmann::ordered_json::parse(text);
    EXPECT_EQ(doc["nodes"][0]["address"],
              "gpu\xc2\x9b"
              "01\x7f:9499");
    EXPECT_EQ(doc["nodes"][1]["address"], "bad\xef\xbf\xbd:9499");  // invalid UTF-8 is U+FFFD
    EXPECT_EQ(doc["errors"].size(), 2u);
}

TEST(ClusterOutput, AnUnknownUserIsTwoQuestionMarksAsTheContractSays) {
    musatop::Snapshot snapshot;
    musatop::Device device;
    device.index = 0;
    snapshot.devices.push_back(device);
    musatop::GpuProcess process;
    process.device_index = 0;
    process.pid = 42;
    process.gpu_memory_bytes = std::int64_t{288} << 20;
    snapshot.processes.push_back(process);
    ClusterSnapshot cluster;
    NodeView node;
    node.address = "gpu01:9499";
    node.state = NodeState::ok;
    node.snapshot = std::make_shared<const musatop::Snapshot>(snapshot);
    cluster.nodes.push_back(node);
    const std::string text =
        render_cluster_text(cluster, ViewFilter{}, with([](GpustatStyle& s) { s.show_cmd = true; }));
    EXPECT_NE(text.find("?\?:?\?(288M)"), std::string::npos) << text;
}

TEST(ClusterTracker, ANodeOverTheRowCapIsAnErrorAndTheReadStops) {
    musatop::Snapshot crowded = musatop::make_demo_snapshot(1.0, WallTime(std::chrono::seconds(1800000000)));
    crowded.processes.assign(musatop::cluster::kMaxProcessesPerNode + 1, crowded.processes.front());
    ClusterTracker tracker({"gpu01:9499"}, Seconds(10));
    tracker.record(0, answer(musatop::render_json_compact(crowded)), WallTime(std::chrono::seconds(1800000000)));
    const auto view = tracker.view(WallTime(std::chrono::seconds(1800000000)));
    EXPECT_EQ(view.nodes[0].state, NodeState::error);
    EXPECT_EQ(view.nodes[0].error, "not a musatop snapshot: invalid snapshot: more than 16384 process rows");
    crowded.processes.resize(musatop::cluster::kMaxProcessesPerNode);  // at the cap: fine
    tracker.record(0, answer(musatop::render_json_compact(crowded)), WallTime(std::chrono::seconds(1800000001)));
    EXPECT_EQ(tracker.view(WallTime(std::chrono::seconds(1800000001))).nodes[0].state, NodeState::ok);
}
