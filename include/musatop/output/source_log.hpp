// What an agent or a recorder says on stderr (the journal, under systemd) about
// its sources: the first failure with its message, the recovery, and a source that
// fails its very first round; one line per change, so a GMI missing for a day is
// said once, not every second. The screen shows the same on its status line.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "musatop/model/snapshot.hpp"

namespace musatop {

class SourceStateLog {
public:
    // The lines this round adds (none when no source changed state).
    std::vector<std::string> changes(const Snapshot& snapshot);

private:
    std::optional<bool> devices_failing_;  // unknown before the first round
    std::optional<bool> processes_failing_;
};

}  // namespace musatop
