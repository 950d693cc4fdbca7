#include "musatop/tui/cluster/cluster_app.hpp"

#include "musatop/tui/curses_terminal.hpp"
#include "musatop/tui/terminal_guard.hpp"
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
    std::string status_badge() const override { return "NODE " + name_ + " (Esc: back to the cluster)"; }

private:
    cluster::ClusterSampler& sampler_;
    std::string address_;
    std::string name_;
};

class ClusterLoop {
public:
    ClusterLoop(const ClusterTuiSettings& settings, cluster::ClusterSampler& sampler, CursesTerminal& terminal)
        : settings_(settings), sampler_(sampler), terminal_(terminal) {
        state_.filter = settings.filter;
        state_.nodes = settings.nodes;
    }

    void run() {
        bool dirty = true;
        std::uint64_t seen = ~std::uint64_t{0};
        std::int64_t drawn_second = -1;
        for (;;) {
            if (TerminalGuard::quit_requested()) return;
            if (TerminalGuard::take_resumed()) {
                terminal_.resume();
                dirty = true;
            }
            const MonoTime now = mono_now();
            if (sampler_.revision() != seen) {
                seen = sampler_.revision();
                cluster_ = sampler_.latest();
                dirty = true;
            }
            if (dirty || whole_seconds(now) != drawn_second || terminal_.width() != width_ ||
                terminal_.height() != height_) {
                draw(now);
                drawn_second = whole_seconds(now);
                dirty = false;
            }
            auto key = terminal_.read_key(0);
            if (!key) {
                wait_for_key_or_publication(sampler_.publication_fd(),
                                            MonoTime(std::chrono::floor<std::chrono::seconds>(now.time_since_epoch()) +
                                                     std::chrono::seconds(1)));
                key = terminal_.read_key(0);
            }
            if (!key) continue;
            dirty = true;
            switch (handle_cluster_key(state_, *key, cluster_.get(), node_page_, mono_now())) {
                case ClusterEffect::quit: return;
                case ClusterEffect::refresh: sampler_.request_refresh(); break;
                case ClusterEffect::drill: open_selected(); break;
                case ClusterEffect::none:
                case ClusterEffect::redraw: break;
            }
            if (key->kind == KeyKind::redraw) terminal_.repaint_everything();
        }
    }

private:
    void draw(MonoTime now) {
        Canvas canvas(terminal_.width(), terminal_.height());
        ClusterScreenInput input;
        input.cluster = cluster_.get();
        input.state = &state_;
        input.ascii = settings_.ascii;
        input.title = std::string("musatop ") + kVersion;
        input.refresh_note = settings_.refresh_note;
        input.now = now;
        const ClusterGeometry g = draw_cluster_screen(canvas, input);
        state_.line_offset = g.line_offset;
        state_.help_scroll = g.help_scroll;
        node_page_ = g.node_rows;
        terminal_.draw(canvas);
        width_ = canvas.width();
        height_ = canvas.height();
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
    CursesTerminal& terminal_;
    ClusterUiState state_;
    std::shared_ptr<const cluster::ClusterSnapshot> cluster_;
    int node_page_ = 1;
    int width_ = -1, height_ = -1;
};

}  // namespace

int run_cluster_tui(const ClusterTuiSettings& settings, cluster::ClusterSampler& sampler) {
    sampler.start();
    return run_on_terminal(settings.node_screen.color, settings.node_screen.mouse, [&](CursesTerminal& terminal) {
        ClusterLoop(settings, sampler, terminal).run();
    });
}

}  // namespace musatop::tui
