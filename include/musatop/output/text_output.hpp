// `musatop --once`: the plain-text snapshot. Every external string is sanitised.
#pragma once

#include <string>

#include "musatop/model/snapshot.hpp"

namespace musatop {

std::string render_text(const Snapshot& snapshot);

}  // namespace musatop
