#include "musatop/net/admission.hpp"

#include <algorithm>
#include <optional>

namespace musatop::net {
namespace {

// The order in which connections make room; queued ones never do.
int eviction_rank(const ConnectionView& c) {
    switch (c.phase) {
        case Phase::closing: return 0;
        case Phase::idle: return 1;
        case Phase::handshake:
        case Phase::head: return 2;
        case Phase::writing: return 3;
        case Phase::queued: return -1;
    }
    return -1;
}

// The connection to close first among those `eligible` accepts, not yet chosen.
template <typename Eligible>
std::optional<std::uint64_t> first_to_go(std::span<const ConnectionView> open, const std::vector<std::uint64_t>& chosen,
                                         Eligible eligible) {
    const ConnectionView* best = nullptr;
    for (const auto& c : open) {
        if (eviction_rank(c) < 0 || !eligible(c)) continue;
        if (std::find(chosen.begin(), chosen.end(), c.id) != chosen.end()) continue;
        if (!best || eviction_rank(c) < eviction_rank(*best) ||
            (eviction_rank(c) == eviction_rank(*best) && c.since < best->since))
            best = &c;
    }
    if (!best) return std::nullopt;
    return best->id;
}

}  // namespace

bool pending(const ConnectionView& c) {
    return c.first_request && (c.phase == Phase::handshake || c.phase == Phase::head);
}

Admission admit(std::span<const ConnectionView> open, std::string_view address, int max_open, int per_address_pending) {
    Admission out;
    const auto same_address_pending = [&](const ConnectionView& c) { return pending(c) && c.address == address; };
    const auto mine = std::count_if(open.begin(), open.end(), same_address_pending);
    if (mine >= per_address_pending) {
        if (auto id = first_to_go(open, out.close, same_address_pending)) out.close.push_back(*id);
    }
    const auto count = static_cast<long>(open.size()) - static_cast<long>(out.close.size()) + 1;
    if (count > max_open) {
        if (auto id = first_to_go(open, out.close, [](const ConnectionView&) { return true; }))
            out.close.push_back(*id);
        else out.refuse_new = true;
    }
    return out;
}

int resolve_max_open(int configured, long fd_limit, int fds_in_use, int reserved_fds) {
    if (configured > 0) return configured;
    const long left = fd_limit - fds_in_use - reserved_fds;
    return static_cast<int>(std::clamp<long>(left, 4, 1024));
}

int resolve_per_address(int configured, int max_open) {
    if (configured > 0) return configured;
    return std::max(4, max_open / 8);
}

}  // namespace musatop::net
