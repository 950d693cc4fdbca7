#include "musatop/tui/ui_state.hpp"

namespace musatop::tui {

RowIdentity identity_of(const GpuProcess& p) { return RowIdentity{p.device_index, p.device_uuid, p.pid, p.create_time}; }

ViewFilter effective_filter(const UiState& state) {
    ViewFilter filter = state.filter;
    if (state.current_user_only) filter.current_user = state.login_name;
    return filter;
}

}  // namespace musatop::tui
