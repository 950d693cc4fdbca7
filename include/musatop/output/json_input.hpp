// The JSON snapshot document read back: the inverse of render_json, for documents
// that come from elsewhere (a remote `musatop serve`, a recording). Untrusted input:
// every key is type-checked, unknown keys are ignored (later additions to schema 1),
// and a document of another schema is refused with a message that says what is wrong.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "musatop/model/snapshot.hpp"
#include "musatop/util/result.hpp"

namespace musatop {

// Spare capacity a string needs after its text to be read where it lies: the
// reader skips whitespace 16 bytes at a time (SSE2, NEON), and an aligned load may
// touch up to 15 bytes past the terminating NUL. The cluster fetcher reserves it.
inline constexpr std::size_t kJsonPaddingBytes = 16;

// Reads many documents, keeping its buffers between them (the cluster view reads
// every node's snapshot each refresh, a replay every line). One thread at a time.
class JsonSnapshotReader {
public:
    // Rows a document may hold before it is refused (and parsing stops, so a
    // hostile document costs at most this much memory).
    struct Limits {
        std::size_t max_devices = SIZE_MAX;
        std::size_t max_processes = SIZE_MAX;
    };
    JsonSnapshotReader();
    explicit JsonSnapshotReader(Limits limits);
    ~JsonSnapshotReader();
    JsonSnapshotReader(JsonSnapshotReader&&) noexcept;
    JsonSnapshotReader& operator=(JsonSnapshotReader&&) noexcept;

    Result<Snapshot> read(std::string_view text);
    // The same without a copy when the string's spare capacity holds the padding.
    Result<Snapshot> read(const std::string& text);

private:
    Result<Snapshot> read_padded(const std::string& text);
    struct Parser;
    std::unique_ptr<Parser> parser_;
};

// One document, with a reader of its own.
Result<Snapshot> parse_json_snapshot(std::string_view text);

// "2026-12-02T10:00:00.123456+00:00" (or with "Z"), as render_json writes times.
std::optional<WallTime> parse_iso8601(std::string_view text);

}  // namespace musatop
