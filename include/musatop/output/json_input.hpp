// The JSON snapshot document read back: the inverse of render_json, for documents
// that come from elsewhere (a remote `musatop serve`, a recording). Untrusted input:
// every key is type-checked, unknown keys are ignored (later additions to schema 1),
// and a document of another schema is refused with a message that says what is wrong.
#pragma once

#include <optional>
#include <string_view>

#include "musatop/model/snapshot.hpp"
#include "musatop/util/result.hpp"

namespace musatop {

Result<Snapshot> parse_json_snapshot(std::string_view text);

// "2026-12-02T10:00:00.123456+00:00" (or with "Z"), as render_json writes times.
std::optional<WallTime> parse_iso8601(std::string_view text);

}  // namespace musatop
