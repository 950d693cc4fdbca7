// The JSON snapshot document read back: the inverse of render_json, for documents
// that come from elsewhere (a remote `musatop serve`, a recording). Untrusted input:
// every key is type-checked, unknown keys are ignored (later additions to schema 1),
// and a document of another schema is refused with a message that says what is wrong.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "musatop/model/snapshot.hpp"
#include "musatop/util/result.hpp"

namespace musatop {

// Reads many documents, keeping its buffers between them (the cluster view reads
// every node's snapshot each refresh, a replay every line). One thread at a time.
class JsonSnapshotReader {
public:
    JsonSnapshotReader();
    ~JsonSnapshotReader();
    JsonSnapshotReader(JsonSnapshotReader&&) noexcept;
    JsonSnapshotReader& operator=(JsonSnapshotReader&&) noexcept;

    Result<Snapshot> read(std::string_view text);
    // The same without a copy: a std::string ends in the NUL the parser stops at.
    Result<Snapshot> read(const std::string& text);

private:
    struct Parser;
    std::unique_ptr<Parser> parser_;
};

// One document, with a reader of its own.
Result<Snapshot> parse_json_snapshot(std::string_view text);

// "2026-12-02T10:00:00.123456+00:00" (or with "Z"), as render_json writes times.
std::optional<WallTime> parse_iso8601(std::string_view text);

}  // namespace musatop
