// `musatop --json`: schema version 1, key order and number types as the Python tool
// printed them, ASCII only, one trailing newline.
#pragma once

#include <string>

#include "musatop/model/snapshot.hpp"

namespace musatop {

std::string render_json(const Snapshot& snapshot);

// The same document on one line, without the trailing newline (JSON Lines).
std::string render_json_compact(const Snapshot& snapshot);

}  // namespace musatop
