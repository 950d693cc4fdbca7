// Everything the interactive screen remembers between frames. Plain data: the key
// handler changes it, the renderer reads it.
#pragma once

#include <optional>
#include <string>

#include "musatop/model/snapshot.hpp"
#include "musatop/model/view_filter.hpp"

namespace musatop::tui {

enum class Modal { none, help, details, confirm };

// What identifies a process row across refreshes (PID reuse changes create_time).
struct RowIdentity {
    std::int64_t device_index = 0;
    std::optional<std::string> device_uuid;
    std::int64_t pid = 0;
    std::optional<double> create_time;
    bool operator==(const RowIdentity&) const = default;
};

RowIdentity identity_of(const GpuProcess& process);

struct UiState {
    ViewFilter filter;               // command-line filters plus search and "u"
    std::string login_name;          // for "u"
    bool current_user_only = false;
    bool search_editing = false;
    std::string search_draft;
    bool compact = false;
    bool trends_visible = true;
    int selection = 0;
    int process_offset = 0;
    int device_offset = 0;
    std::optional<RowIdentity> selected;
    // Trend target: a GPU's history key (or "index:N" for a keyless GPU); none = ALL.
    std::optional<std::string> trend_target;
    Modal modal = Modal::none;
    int modal_scroll = 0;
    std::optional<GpuProcess> modal_process;  // a copy taken when the modal opened
    std::string message;
    double message_expires_at = 0;  // monotonic seconds
};

// The filter in force: command-line filters, the search text and "u".
ViewFilter effective_filter(const UiState& state);

}  // namespace musatop::tui
