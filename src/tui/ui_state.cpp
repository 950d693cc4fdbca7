#include "musatop/tui/ui_state.hpp"

namespace musatop::tui {

ViewFilter effective_filter(const UiState& state) {
    ViewFilter filter = state.filter;
    if (state.current_user_only) filter.users.push_back(state.login_name);
    return filter;
}

}  // namespace musatop::tui
