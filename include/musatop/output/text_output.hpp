// `musatop --once`: the plain-text snapshot. Every external string is sanitised.
#pragma once

#include <string>

#include "musatop/model/snapshot.hpp"
#include "musatop/output/paint.hpp"

namespace musatop {

// With `paint` on (a terminal), fields are coloured; the characters are the same.
std::string render_text(const Snapshot& snapshot, const Paint& paint = {});

}  // namespace musatop
