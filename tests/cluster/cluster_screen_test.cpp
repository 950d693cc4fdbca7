// The cluster screen drawn from a synthetic cluster: every size from 60x12 up fits,
// node blocks page, the keys move, filter, search and refuse SIGTERM.
#include <gtest/gtest.h>

#include "musatop/cluster/cluster_tracker.hpp"
#include "musatop/output/json_output.hpp"
#include "musatop/output/sanitize.hpp"
#include "musatop/tui/cluster/cluster_screen.hpp"

using namespace musatop;
using namespace musatop::tui;

namespace {

cluster::ClusterSnapshot make_cluster(int nodes, int gpus) {
    std::vector<std::string> addresses;
    for (int n = 0; n < nodes; ++n) addresses.push_back("gpu" + std::to_string(n) + ":9499");
    cluster::ClusterTracker tracker(addresses, Seconds(3));
    const WallTime t0(std::chrono::seconds(1800000000));
    for (int n = 0; n < nodes; ++n) {
        if (n % 5 == 4) {
            cluster::FetchOutcome down;
            down.failure = "connection refused";
            tracker.record(static_cast<std::size_t>(n), down, t0);
            continue;
        }
        Snapshot s;
        s.sampled_at = t0;
        s.host.hostname = "gpu" + std::to_string(n);
        for (int g = 0; g < gpus; ++g) {
            Device d;
            d.index = g;
            d.name = "MTT S5000";
            d.gpu_utilization_percent = (g * 37 + n) % 100;
            d.memory_used_bytes = static_cast<std::int64_t>(g + 1) << 30;
            d.memory_total_bytes = 80LL << 30;
            s.devices.push_back(d);
            GpuProcess p;
            p.device_index = g;
            p.pid = 1000 + g;
            p.username = n % 2 ? "alice" : "bob";
            p.command = "python job.py";
            p.gpu_memory_bytes = 1LL << 30;
            s.processes.push_back(p);
        }
        cluster::FetchOutcome ok;
        ok.answered = true;
        ok.http_status = 200;
        ok.body = render_json(s);
        ok.seconds = 0.0009;
        tracker.record(static_cast<std::size_t>(n), ok, t0);
    }
    return tracker.view(t0);
}

std::string draw(const cluster::ClusterSnapshot& cluster, ClusterUiState& state, int width, int height,
                 ClusterGeometry* geometry = nullptr) {
    Canvas canvas(width, height);
    ClusterScreenInput in{&cluster, &state, false, "musatop", "every 1 s", {}, {}};
    const auto g = draw_cluster_screen(canvas, in);
    state.line_offset = g.line_offset;
    if (geometry) *geometry = g;
    std::string text;
    for (int r = 0; r < height; ++r) text += canvas.row_text(r) + "\n";
    return text;
}

}  // namespace

// Line 2 says where the data comes from once ("prometheus from Prometheus" was
// the origin's name and the note one after the other).
TEST(ClusterScreen, TheSecondLineSaysWhereTheDataComesFromOnce) {
    auto cluster = make_cluster(3, 2);
    cluster.source = cluster::ClusterOrigin::prometheus;
    ClusterUiState state;
    Canvas canvas(120, 30);
    ClusterScreenInput in{
        &cluster, &state, false, "musatop", "from Prometheus: the data changes once per scrape interval", {}, {}};
    draw_cluster_screen(canvas, in);
    EXPECT_EQ(canvas.row_text(1).rfind("from Prometheus: the data changes once per scrape interval", 0), 0u)
        << canvas.row_text(1);
}

// Three agents on one host (the demo cluster) all report hostname "vm": the
// process rows then name each node by its address, which tells them apart.
TEST(ClusterScreen, SharedHostnamesAreToldApartByAddress) {
    auto cluster = make_cluster(3, 1);
    for (auto& node : cluster.nodes) node.hostname = "vm";
    ClusterUiState state;
    const std::string shared = draw(cluster, state, 120, 40);
    for (const char* address : {"gpu0:9499", "gpu1:9499", "gpu2:9499"})
        EXPECT_NE(shared.find("\n" + std::string(address) + " "), std::string::npos) << address << "\n" << shared;
    const std::string distinct = draw(make_cluster(3, 1), state, 120, 40);
    EXPECT_NE(distinct.find("\ngpu1 "), std::string::npos) << distinct;  // unique: the hostname
    EXPECT_EQ(distinct.find("\ngpu1:9499"), std::string::npos) << distinct;
}

TEST(ClusterScreen, EverySizeFrom60x12FitsAndTooSmallSaysSo) {
    const auto cluster = make_cluster(12, 8);
    for (int width = 40; width <= 220; width += 7)
        for (int height = 6; height <= 70; height += 5) {
            ClusterUiState state;
            state.selected = 7;
            Canvas canvas(width, height);
            ClusterScreenInput in{&cluster, &state, width % 2 == 0, "musatop", "every 1 s", {}, {}};
            const auto g = draw_cluster_screen(canvas, in);
            EXPECT_EQ(g.too_small, width < 60 || height < 12) << width << "x" << height;
            for (int r = 0; r < height; ++r)
                ASSERT_LE(display_width(canvas.row_text(r)), width) << width << "x" << height << " row " << r;
        }
}

TEST(ClusterScreen, TotalsBlocksAndTheProcessTable) {
    const auto cluster = make_cluster(5, 2);
    ClusterUiState state;
    const std::string text = draw(cluster, state, 120, 40);
    EXPECT_NE(text.find("nodes 5: 4 ok, 1 down | GPUs 8:"), std::string::npos) << text;
    EXPECT_NE(text.find("> gpu0"), std::string::npos);
    EXPECT_NE(text.find("gpu4:9499  unreachable  connection refused"), std::string::npos) << text;
    EXPECT_NE(text.find("NODE           GPU     PID USER"), std::string::npos);
    EXPECT_NE(text.find("Processes 8 | sort=gpu_memory"), std::string::npos);
    EXPECT_NE(text.find("q quit ? help"), std::string::npos);
}

TEST(ClusterScreen, ThousandsOfNodesPageAndTheSelectionStaysInView) {
    const auto cluster = make_cluster(2000, 8);
    ClusterUiState state;
    ClusterGeometry g;
    draw(cluster, state, 100, 30, &g);
    const MonoTime now{};
    handle_cluster_key(state, Key{KeyKind::end}, &cluster, g.node_rows, now);
    EXPECT_EQ(state.selected, 1999);
    const std::string end = draw(cluster, state, 100, 30, &g);
    EXPECT_NE(end.find("> gpu1999"), std::string::npos) << end;
    handle_cluster_key(state, Key{KeyKind::home}, &cluster, g.node_rows, now);
    EXPECT_NE(draw(cluster, state, 100, 30).find("> gpu0 "), std::string::npos);
    handle_cluster_key(state, Key{KeyKind::page_down}, &cluster, g.node_rows, now);
    EXPECT_GT(state.line_offset, 0);
}

TEST(ClusterScreen, NodeFilterSearchSortAndRefusals) {
    const auto cluster = make_cluster(10, 2);
    ClusterUiState state;
    const MonoTime now{};
    EXPECT_EQ(handle_cluster_key(state, Key::character('n'), &cluster, 10, now), ClusterEffect::redraw);
    for (char c : std::string("gpu[1-2]"))
        handle_cluster_key(state, Key::character(static_cast<char32_t>(c)), &cluster, 10, now);
    handle_cluster_key(state, Key{KeyKind::enter}, &cluster, 10, now);
    EXPECT_EQ(shown_nodes(cluster, state).size(), 2u);
    const std::string filtered = draw(cluster, state, 100, 30);
    EXPECT_NE(filtered.find("nodes 2:"), std::string::npos);
    EXPECT_NE(filtered.find("-n gpu[1-2]"), std::string::npos);
    handle_cluster_key(state, Key::character('n'), &cluster, 10, now);
    for (char c : std::string("x["))
        handle_cluster_key(state, Key::character(static_cast<char32_t>(c)), &cluster, 10, now);
    handle_cluster_key(state, Key{KeyKind::enter}, &cluster, 10, now);
    EXPECT_NE(state.message.text.find("unclosed bracket"), std::string::npos);  // a bad filter keeps the old one
    EXPECT_EQ(shown_nodes(cluster, state).size(), 2u);
    handle_cluster_key(state, Key::character('k'), &cluster, 10, now);
    EXPECT_EQ(state.message.text, "Remote processes are read-only: SIGTERM is refused in the cluster view.");
    handle_cluster_key(state, Key::character('s'), &cluster, 10, now);
    EXPECT_EQ(state.filter.sort, SortField::pid);  // the table has no CPU or RSS column to sort by
    EXPECT_EQ(handle_cluster_key(state, Key{KeyKind::enter}, &cluster, 10, now), ClusterEffect::drill);
    EXPECT_EQ(handle_cluster_key(state, Key::character('r'), &cluster, 10, now), ClusterEffect::refresh);
    EXPECT_EQ(handle_cluster_key(state, Key::character('q'), &cluster, 10, now), ClusterEffect::quit);
    state.filter.users = {"alice"};
    EXPECT_NE(draw(cluster, state, 100, 30).find("user alice"), std::string::npos);
}

// "Which GPUs are free": the totals count free / in use / unknown (utilisation under
// the threshold and no process), and each node's header says its own.
TEST(ClusterScreen, TheHeaderCountsFreeGpusAndEachNodeSaysItsOwn) {
    auto cluster = make_cluster(2, 2);
    Snapshot s = *cluster.nodes[0].snapshot;
    std::erase_if(s.processes, [](const GpuProcess& p) { return p.device_index == 1; });
    s.devices[1].gpu_utilization_percent = 1.0;  // idle cards sit at a few percent
    s.processes_sampled_at = s.sampled_at;
    cluster.nodes[0].snapshot = std::make_shared<const Snapshot>(s);
    ClusterUiState state;
    const std::string text = draw(cluster, state, 140, 30);
    EXPECT_NE(text.find("GPUs 4: 1 free, 3 in use |"), std::string::npos) << text;
    EXPECT_NE(text.find("free 1/2"), std::string::npos) << text;
    state.filter.gpu_indices = std::set<std::int64_t>{0};
    EXPECT_NE(draw(cluster, state, 140, 30).find("GPUs 2: 0 free, 2 in use |"), std::string::npos);
}

// At 80 columns the title keeps its totals, a node's header keeps its RAM, the GPU
// lines keep whole user names, and an address that must be cut keeps its end (the
// port or last octet that tells two agents on one host apart).
TEST(ClusterScreen, EightyColumnsKeepWhatTellsNodesAndUsersApart) {
    auto cluster = make_cluster(2, 2);
    for (auto& node : cluster.nodes) {
        Snapshot s = *node.snapshot;
        s.host.hostname = "vm";  // both agents report the same hostname
        s.host.memory_used_bytes = 425LL << 20;
        s.host.memory_total_bytes = 24LL << 30;
        node.snapshot = std::make_shared<const Snapshot>(s);
        node.hostname = "vm";
        node.address = "127.0.0.1:1949" + std::to_string(&node - cluster.nodes.data() + 6);
    }
    ClusterUiState state;
    const std::string text = draw(cluster, state, 80, 30);
    EXPECT_NE(text.find("VRAM 6.0/320.0GiB\n"), std::string::npos) << text;  // whole, to its end
    EXPECT_NE(text.find("RAM 425MiB/24.0GiB"), std::string::npos) << text;
    EXPECT_NE(text.find(" alice\n"), std::string::npos) << text;
    EXPECT_NE(text.find("~7.0.0.1:19496 "), std::string::npos) << text;
    EXPECT_NE(text.find("~7.0.0.1:19497 "), std::string::npos) << text;
}
