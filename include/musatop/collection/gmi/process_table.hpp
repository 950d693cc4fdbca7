// Parser for the "Processes:" table of the plain `mthreads-gmi` summary.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "musatop/util/result.hpp"

namespace musatop::gmi {

struct ProcessRow {
    std::int64_t device_index = 0;
    std::int64_t pid = 0;
    std::optional<std::string> name;  // GMI's process name (maybe cut with "...")
    std::optional<std::int64_t> gpu_memory_bytes;

    bool operator==(const ProcessRow&) const = default;
};

// Accepts the real narrow/wide layouts and the boxed layout of the reference fixtures;
// a missing, truncated or malformed table is an error, never an empty list.
Result<std::vector<ProcessRow>> parse_process_table(std::string_view summary);

}  // namespace musatop::gmi
