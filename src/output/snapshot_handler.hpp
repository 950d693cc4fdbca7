// (internal to the output layer) The snapshot document read as RapidJSON's SAX
// events, straight into a Snapshot through the key tables of json_fields.hpp: no
// DOM is built, each key is looked up once (documents list the keys in table
// order, so the search starts after the previous match), and the first problem is
// kept, worded as the reader has always worded it, while the parse goes on so that
// text that is not JSON at all is still called "not JSON".
#pragma once

#include <rapidjson/reader.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json_capture.hpp"
#include "musatop/model/snapshot.hpp"

namespace musatop::json_input {

class SnapshotHandler : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, SnapshotHandler> {
public:
    // `out` is filled in place; the sizes reserve its lists (the last document's).
    SnapshotHandler(Snapshot& out, std::size_t devices_hint, std::size_t processes_hint);

    bool Null();
    bool Bool(bool value);
    bool Int(int value) { return Int64(value); }
    bool Uint(unsigned value) { return Int64(value); }
    bool Int64(std::int64_t value);
    bool Uint64(std::uint64_t value);
    bool Double(double value);
    bool String(const char* text, rapidjson::SizeType length, bool copy);
    bool Key(const char* text, rapidjson::SizeType length, bool copy);
    bool StartObject();
    bool EndObject(rapidjson::SizeType);
    bool StartArray();
    bool EndArray(rapidjson::SizeType);

    void set_limits(std::size_t max_devices, std::size_t max_processes) {
        max_devices_ = max_devices;
        max_processes_ = max_processes;
    }
    // Set when a list passed its limit; the parse was stopped there.
    const std::optional<std::string>& over_limit() const { return over_limit_; }

    // After a complete parse: the reader's message for a document that is not a
    // usable snapshot ("schema_version 2 is not 1", "invalid snapshot: ..."), if any.
    std::optional<std::string> problem() const;

    // One value as it came, for the table rows.
    struct Scalar {
        enum class Kind { null, boolean, integer, too_big, real, text } kind = Kind::null;
        bool boolean = false;
        std::int64_t integer = 0;
        double real = 0;
        std::string_view text;
    };

private:
    enum class Context { root, host, devices, device, processes, process, texts };
    struct Level {
        explicit Level(Context c) : context(c) {}
        Context context;
        int pending = -1;  // what the last key names (a table index, a root key), -1 for unknown
        std::size_t cursor = 0, second_cursor = 0, third_cursor = 0;
        std::uint64_t given = 0, second_given = 0, third_given = 0;
        std::vector<std::string>* texts = nullptr;  // Context::texts: where the items go
        const char* item_error = nullptr;           // ... and what a non-text item is called
        std::optional<std::string> status;          // Context::process
    };

    bool scalar(const Scalar& value);
    int process_key(std::string_view key, Level& level);
    static std::string process_value_error(int key);
    void start_capture(int target, bool object);
    void finish_capture();
    void nested_scalar(int target, const Scalar& value);
    bool root_scalar(int key, const Scalar& value);
    bool open(bool object);  // StartObject / StartArray
    bool close();
    void fail(std::string message);
    void skip_nested() { ++skip_depth_; }
    Level& top() { return levels_.back(); }

    Snapshot& out_;
    std::vector<Level> levels_;
    std::optional<JsonCapture> capture_;  // inside a nested value (the driver's figures)
    int capture_target_ = -1;
    int skip_depth_ = 0;  // inside a value that is ignored (an unknown key, or one in error)
    bool started_ = false;
    bool root_is_object_ = false;
    std::optional<std::int64_t> schema_;
    std::optional<std::string> schema_problem_;
    std::optional<std::string> problem_;
    std::uint32_t seen_ = 0;  // root keys given (bits of RootKey)
    std::size_t max_devices_ = SIZE_MAX, max_processes_ = SIZE_MAX;
    std::optional<std::string> over_limit_;
};

}  // namespace musatop::json_input
