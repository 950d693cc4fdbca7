// TIME for `musatop replay --at/--from/--to`: ISO 8601 with a zone
// ("2026-12-02T03:15:00Z", "...+08:00"), local time without one
// ("2026-12-02T03:15:00", "2026-12-02 03:15"), or an offset from the start of the
// recording ("+90s", "+5m", "+1h30m"). Pure apart from the local time zone.
#pragma once

#include <optional>
#include <string_view>

#include "musatop/model/snapshot.hpp"

namespace musatop::replay {

std::optional<WallTime> parse_replay_time(std::string_view text, WallTime start);

}  // namespace musatop::replay
