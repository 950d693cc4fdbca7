// The replay keys' way into a player: what the screen holds besides the feed when
// it shows a recording (a live screen has none).
#pragma once

#include <string>
#include <string_view>

namespace musatop::replay {

enum class ReplayCommand { toggle_pause, step_back, step_forward, slower, faster, to_start, to_end, jump };

class ReplayControl {
public:
    virtual ~ReplayControl() = default;
    // Returns the message for the status line.
    virtual std::string control(ReplayCommand command, std::string_view argument) = 0;
};

}  // namespace musatop::replay
