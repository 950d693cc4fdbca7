#include "musatop/tui/cluster/cluster_app.hpp"

#include "musatop/output/sanitize.hpp"
#include "musatop/tui/curses_terminal.hpp"
#include "musatop/tui/screen_loop.hpp"
#include "musatop/util/version.hpp"

namespace musatop::tui {
namespace {

// One node of the cluster as the single-host screen's feed: its newest snapshot
// (read-only) and the history the cluster sampler keeps for it.
class NodeFeed final : public FrameFeed {
public:
    NodeFeed(cluster::ClusterSampler& sampler, std::string address, std::string name)
        : sampler_(sampler), address_(std::move(address)), name_(std::move(name)) {}
    Frame latest() const override { return sampler_.node_frame(address_); }
    std::uint64_t revision() const override { return sampler_.revision(); }
    int publication_fd() const override { return sampler_.publication_fd(); }
    void request_refresh() override { sampler_.request_refresh(); }
    std::chrono::steady_clock::duration interval() const override { return to_duration(sampler_.interval()); }
    std::string status_badge() const override {
        // Both names: three agents on one host all report the same hostname.
        const std::string both = name_ == address_ ? address_ : name_ + " at " + address_;
        return "NODE " + sanitize(both) + " (Esc: back to the cluster)";
    }

private:
    cluster::ClusterSampler& sampler_;
    std::string address_;
    std::string name_;
};

class ClusterLoop final : public ScreenLoop {
public:
    ClusterLoop(const ClusterTuiSettings& settings, cluster::ClusterSampler& sampler, CursesTerminal& terminal)
        : ScreenLoop(terminal), settings_(settings), sampler_(sampler) {
        state_.filter = settings.filter;
        state_.nodes = settings.nodes;
    }

protected:
    bool take_new_data(MonoTime) override {
        if (sampler_.revision() == seen_) return false;
        seen_ = sampler_.revision();
        cluster_ = sampler_.latest();
        return true;
    }

    void draw(MonoTime now, bool) override { draw_frame(now); }

    int publication_fd() const override { return sampler_.publication_fd(); }

    bool on_key(const Key& key) override {
        switch (handle_cluster_key(state_, key, cluster_.get(), node_page_, mono_now())) {
            case ClusterEffect::quit: return false;
            case ClusterEffect::refresh: sampler_.request_refresh(); break;
            case ClusterEffect::drill: open_selected(); break;
            case ClusterEffect::none:
            case ClusterEffect::redraw: break;
        }
        return true;
    }

private:
    void draw_frame(MonoTime now) {
        Canvas canvas(terminal_.width(), terminal_.height());
        ClusterScreenInput input;
        input.cluster = cluster_.get();
        input.state = &state_;
        input.ascii = settings_.ascii;
        input.free = settings_.free;
        input.title = std::string("musatop ") + kVersion;
        input.refresh_note = settings_.refresh_note;
        input.now = now;
        const ClusterGeometry g = draw_cluster_screen(canvas, input);
        state_.line_offset = g.line_offset;
        state_.help_scroll = g.help_scroll;
        node_page_ = g.node_rows;
        terminal_.draw(canvas);
    }

    void open_selected() {
        if (!cluster_) return;
        const auto nodes = shown_nodes(*cluster_, state_);
        if (state_.selected < 0 || state_.selected >= static_cast<int>(nodes.size())) return;
        const auto& node = *nodes[static_cast<std::size_t>(state_.selected)];
        sampler_.set_focus(node.address);
        NodeFeed feed(sampler_, node.address, node.hostname.value_or(node.address));
        TuiSettings screen = settings_.node_screen;
        screen.filter = state_.filter;
        screen.back_on_escape = true;
        run_screen_on(screen, feed, terminal_);
        terminal_.repaint_everything();
    }

    const ClusterTuiSettings& settings_;
    cluster::ClusterSampler& sampler_;
    ClusterUiState state_;
    std::shared_ptr<const cluster::ClusterSnapshot> cluster_;
    int node_page_ = 1;
    std::uint64_t seen_ = ~std::uint64_t{0};
};

}  // namespace

int run_cluster_tui(const ClusterTuiSettings& settings, cluster::ClusterSampler& sampler) {
    sampler.start();
    return run_on_terminal(settings.node_screen.color, settings.node_screen.mouse,
                           [&](CursesTerminal& terminal) { ClusterLoop(settings, sampler, terminal).run(); });
}

}  // namespace musatop::tui
