// (internal to the output layer) Builds one JSON value from SAX events, for the
// few nested values of the snapshot (the driver's figures) that are read through
// a small tree rather than key tables. Values are held on a stack and moved into
// their parent when they close, so no pointer into a growing tree is kept; the
// count of values is capped so that a hostile node's answer stays bounded.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace musatop::json_input {

class JsonCapture {
public:
    using json = nlohmann::ordered_json;
    static constexpr std::size_t kMaxValues = 65536;
    static constexpr std::size_t kMaxDepth = 16;  // the driver's values nest 3 deep

    void key(std::string_view name) {
        if (!beyond_) open_.back().key.assign(name);
    }
    // A scalar; true when it completes the captured value (a bare scalar).
    bool value(json scalar) { return beyond_ ? false : add(std::move(scalar)); }
    void open(bool object) {
        if (beyond_ || open_.size() >= kMaxDepth) {
            ++beyond_;  // counted, not held
            too_deep_ = true;
        } else {
            open_.push_back({object ? json::object() : json::array(), {}});
        }
    }
    // Closes the innermost container; true when that completes the captured value.
    bool close() {
        if (beyond_) return --beyond_, false;
        json done = std::move(open_.back().value);
        open_.pop_back();
        return add(std::move(done));
    }
    bool too_big() const { return count_ > kMaxValues || too_deep_; }
    json& result() { return result_; }

private:
    struct Open {
        json value;
        std::string key;  // the member the next value is, in an object
    };
    bool add(json value) {
        ++count_;
        if (open_.empty()) {
            result_ = std::move(value);
            return true;
        }
        Open& parent = open_.back();
        if (too_big()) return false;  // the rest is dropped; the reader reports it
        if (parent.value.is_object()) parent.value[parent.key] = std::move(value);
        else parent.value.push_back(std::move(value));
        return false;
    }

    std::vector<Open> open_;
    json result_;
    std::size_t count_ = 0;
    std::size_t beyond_ = 0;  // containers opened past kMaxDepth, still open
    bool too_deep_ = false;
};

}  // namespace musatop::json_input
