#include "snapshot_handler.hpp"

#include <array>
#include <cmath>

#include "driver_json.hpp"
#include "json_fields.hpp"
#include "key_tables.hpp"
#include "musatop/output/json_input.hpp"

namespace musatop::json_input {
namespace {

// The root's keys, in document order.
// clang-format off
enum RootKey : int {
    schema_version, sampled_at, devices_sampled_at, processes_sampled_at, driver_version, gmi_version, musa_version,
    musa_version_source, musa_version_reason, host, devices, processes, devices_stale, processes_stale, errors,
    device_source, device_source_reason, processes_unverified_reason, health, untied_driver_gpus, root_key_count
};
constexpr std::array<std::string_view, root_key_count> kRootKeys = {
    "schema_version", "sampled_at", "devices_sampled_at", "processes_sampled_at", "driver_version", "gmi_version",
    "musa_version", "musa_version_source", "musa_version_reason", "host", "devices", "processes", "devices_stale",
    "processes_stale", "errors", "device_source", "device_source_reason", "processes_unverified_reason", "health",
    "untied_driver_gpus"};
// clang-format on

constexpr int kStatusKey = 100;         // a process's "status"
constexpr int kAttributionKey = 200;    // + the index in kAttribution
constexpr int kProcessDriverKey = 300;  // + the index in kProcessDriver
// The nested values read through a JsonCapture (driver_json.hpp).
constexpr int kDriverKey = 400, kDriverEventsKey = 401, kEnginesKey = 402, kUntiedKey = 403;

JsonCapture::json scalar_json(const Scalar& value) {
    switch (value.kind) {
        case Kind::null: return nullptr;
        case Kind::boolean: return value.boolean;
        case Kind::integer: return value.integer;
        case Kind::too_big:
        case Kind::real: return value.real;
        case Kind::text: return std::string(value.text);
    }
    return nullptr;
}

// What a pending key names when its value is one of the nested ones, else -1.
int nested_key(int context_key, bool root) {
    if (root) return context_key == untied_driver_gpus ? kUntiedKey : -1;
    return context_key >= kDriverKey && context_key <= kEnginesKey ? context_key : -1;
}

const char* root_expected(int key) {
    switch (key) {
        case schema_version: return " is not an integer";
        case host: return " is not an object";
        case devices:
        case processes:
        case errors:
        case health: return " is not a list";
        case devices_stale:
        case processes_stale: return " is not true or false";
        default: return " is not a string";
    }
}

}  // namespace

SnapshotHandler::SnapshotHandler(Snapshot& out, std::size_t devices_hint, std::size_t processes_hint) : out_(out) {
    out_.devices.reserve(devices_hint);
    out_.processes.reserve(processes_hint);
    levels_.reserve(8);
}

void SnapshotHandler::fail(std::string message) {
    if (!problem_) problem_ = std::move(message);
}

bool SnapshotHandler::Null() { return scalar(Scalar{}); }
bool SnapshotHandler::Bool(bool value) { return scalar(Scalar{Kind::boolean, value, 0, 0, {}}); }
bool SnapshotHandler::Int64(std::int64_t value) { return scalar(Scalar{Kind::integer, false, value, 0, {}}); }
bool SnapshotHandler::Double(double value) { return scalar(Scalar{Kind::real, false, 0, value, {}}); }
bool SnapshotHandler::Uint64(std::uint64_t value) {
    if (value <= static_cast<std::uint64_t>(INT64_MAX)) return Int64(static_cast<std::int64_t>(value));
    return scalar(Scalar{Kind::too_big, false, 0, static_cast<double>(value), {}});
}
bool SnapshotHandler::String(const char* text, rapidjson::SizeType length, bool) {
    return scalar(Scalar{Kind::text, false, 0, 0, std::string_view(text, length)});
}

bool SnapshotHandler::Key(const char* text, rapidjson::SizeType length, bool) {
    if (capture_) return capture_->key(std::string_view(text, length)), true;
    if (skip_depth_ > 0 || levels_.empty()) return true;
    const std::string_view key(text, length);
    Level& level = top();
    switch (level.context) {
        case Context::root: level.pending = find_key(kRootKeys, key, level.cursor); break;
        case Context::host: level.pending = find_key(json_fields::kHost, key, level.cursor); break;
        case Context::device:
            level.pending = find_key(json_fields::kDevice, key, level.cursor);
            if (level.pending < 0)
                level.pending = key == "driver" ? kDriverKey : key == "driver_events" ? kDriverEventsKey : -1;
            break;
        case Context::process: level.pending = process_key(key, level); break;
        default: break;
    }
    return true;
}

int SnapshotHandler::process_key(std::string_view key, Level& level) {
    if (key == "status") return kStatusKey;
    if (key == "gpu_engine_utilization_percent") return kEnginesKey;
    if (const int at = find_key(json_fields::kProcess, key, level.cursor); at >= 0) return at;
    if (const int owner = find_key(json_fields::kAttribution, key, level.second_cursor); owner >= 0)
        return kAttributionKey + owner;
    const int driver = find_key(json_fields::kProcessDriver, key, level.third_cursor);
    return driver < 0 ? -1 : kProcessDriverKey + driver;
}

// A nested value starts: it is built whole, then read by driver_json.
void SnapshotHandler::start_capture(int target, bool object) {
    capture_.emplace();
    capture_target_ = target;
    capture_->open(object);
}

void SnapshotHandler::finish_capture() {
    JsonCapture done = std::move(*capture_);
    capture_.reset();
    if (done.too_big()) return fail("a driver value is nested too deep or holds too many values");
    const auto& value = done.result();
    std::optional<std::string> problem;
    switch (capture_target_) {
        case kDriverKey: problem = driver_json::read_status(value, out_.devices.back().driver); break;
        case kDriverEventsKey: problem = driver_json::read_events(value, out_.devices.back().driver_events); break;
        case kEnginesKey:
            problem = driver_json::read_engines(value, "gpu_engine_utilization_percent",
                                                out_.processes.back().gpu_engine_utilization);
            break;
        case kUntiedKey: problem = driver_json::read_untied(value, out_.untied_driver_gpus); break;
        default: break;
    }
    if (problem) fail(std::move(*problem));
}

// A scalar where a nested value belongs: null is unknown; anything else is read
// (and refused) by the same function, for the same message.
void SnapshotHandler::nested_scalar(int target, const Scalar& value) {
    if (value.kind == Kind::null) return;
    capture_.emplace();
    capture_target_ = target;
    capture_->value(scalar_json(value));
    finish_capture();
}

bool SnapshotHandler::scalar(const Scalar& value) {
    if (capture_) {
        if (capture_->value(scalar_json(value))) finish_capture();
        return true;
    }
    if (skip_depth_ > 0) return true;
    if (levels_.empty()) {  // a document that is one bare value
        started_ = true;
        return true;
    }
    Level& level = top();
    const int key = level.pending;
    if (const int nested = nested_key(key, level.context == Context::root); nested >= 0)
        return nested_scalar(nested, value), true;
    std::optional<std::string> wrong;
    switch (level.context) {
        case Context::root: return root_scalar(key, value);
        case Context::host:
            if (key >= 0) wrong = set_field(json_fields::kHost, key, value, out_.host, level.given);
            break;
        case Context::device:
            if (is_text_list(json_fields::kDevice, key) && value.kind != Kind::null)
                wrong = std::string(json_fields::kDevice[static_cast<std::size_t>(key)].key) + " is not a list";
            else if (key >= 0) wrong = set_field(json_fields::kDevice, key, value, out_.devices.back(), level.given);
            break;
        case Context::process:
            if (key == kStatusKey) {
                if (value.kind == Kind::text) level.status = std::string(value.text);
                else if (value.kind != Kind::null) wrong = "status is not a string";
            } else if (key >= kProcessDriverKey) {
                wrong = set_field(json_fields::kProcessDriver, key - kProcessDriverKey, value, out_.processes.back(),
                                  level.third_given);
            } else if (key >= kAttributionKey) {
                wrong = set_field(json_fields::kAttribution, key - kAttributionKey, value,
                                  out_.processes.back().attribution, level.second_given);
            } else if (key >= 0) {
                wrong = set_field(json_fields::kProcess, key, value, out_.processes.back(), level.given);
            }
            break;
        case Context::devices: wrong = "a device is not an object"; break;
        case Context::processes: wrong = "a process is not an object"; break;
        case Context::texts:
            if (value.kind == Kind::text) level.texts->emplace_back(value.text);
            else wrong = level.item_error;
            break;
    }
    if (wrong) fail(std::move(*wrong));
    return true;
}

bool SnapshotHandler::root_scalar(int key, const Scalar& value) {
    if (key < 0) return true;  // a key added after this reader: ignored
    const std::string name(kRootKeys[static_cast<std::size_t>(key)]);
    const auto text = [&](std::optional<std::string>& slot) {
        if (value.kind == Kind::text) slot = std::string(value.text);
        else if (value.kind != Kind::null) fail(name + " is not a string");
    };
    const auto time = [&](std::optional<WallTime>& slot) {
        if (value.kind == Kind::null) return;
        if (value.kind != Kind::text) return fail(name + " is not a string");
        slot = parse_iso8601(value.text);
        if (!slot) fail(name + " is not an ISO 8601 time");
    };
    switch (key) {
        case schema_version:
            if (value.kind == Kind::integer) schema_ = value.integer;
            else if (value.kind == Kind::too_big) schema_problem_ = "schema_version is out of range";
            else if (value.kind != Kind::null) schema_problem_ = "schema_version is not an integer";
            return true;
        case sampled_at: {
            std::optional<WallTime> at;
            time(at);
            if (at) {
                out_.sampled_at = *at;
                seen_ |= 1u << sampled_at;
            }
            return true;
        }
        case devices_sampled_at: return time(out_.devices_sampled_at), true;
        case processes_sampled_at: return time(out_.processes_sampled_at), true;
        case driver_version: return text(out_.driver_version), true;
        case gmi_version: return text(out_.gmi_version), true;
        case musa_version: return text(out_.musa_version), true;
        case musa_version_source: return text(out_.musa_version_source), true;
        case musa_version_reason: return text(out_.musa_version_reason), true;
        case device_source_reason: return text(out_.device_source_reason), true;
        case processes_unverified_reason: return text(out_.processes_unverified_reason), true;
        case device_source: {
            if (value.kind == Kind::null) return true;
            for (auto source : {DeviceSource::gmi_json, DeviceSource::gmi_summary, DeviceSource::demo})
                if (value.kind == Kind::text && value.text == to_string(source))
                    return out_.device_source = source, true;
            return fail("device_source is not gmi-json, gmi-summary or demo"), true;
        }
        case devices_stale:
        case processes_stale:
            if (value.kind != Kind::boolean) return fail(name + " is not true or false"), true;
            (key == devices_stale ? out_.devices_stale : out_.processes_stale) = value.boolean;
            seen_ |= 1u << key;
            return true;
        case health:
            if (value.kind != Kind::null) fail(name + " is not a list");
            return true;
        default: fail(name + root_expected(key)); return true;
    }
}

bool SnapshotHandler::StartObject() { return open(true); }
bool SnapshotHandler::StartArray() { return open(false); }
bool SnapshotHandler::EndObject(rapidjson::SizeType) { return close(); }
bool SnapshotHandler::EndArray(rapidjson::SizeType) { return close(); }

bool SnapshotHandler::open(bool object) {
    if (capture_) return capture_->open(object), true;
    if (skip_depth_ > 0) return skip_nested(), true;
    if (levels_.empty()) {
        started_ = true;
        root_is_object_ = object;
        if (object) levels_.push_back(Level{Context::root});
        else skip_nested();
        return true;
    }
    Level& level = top();
    const int key = level.pending;
    if (const int nested = nested_key(key, level.context == Context::root); nested >= 0)
        return start_capture(nested, object), true;
    const auto push_texts = [&](std::vector<std::string>* texts, const char* item_error) {
        Level texts_level{Context::texts};
        texts_level.texts = texts;
        texts_level.item_error = item_error;
        levels_.push_back(texts_level);
    };
    switch (level.context) {
        case Context::root:
            if (key < 0) return skip_nested(), true;
            if (object && key == host) return seen_ |= 1u << host, levels_.push_back(Level{Context::host}), true;
            if (!object && (key == devices || key == processes || key == errors)) seen_ |= 1u << key;
            if (!object && key == devices) return levels_.push_back(Level{Context::devices}), true;
            if (!object && key == processes) return levels_.push_back(Level{Context::processes}), true;
            if (!object && key == errors) return push_texts(&out_.errors, "an error is not a string"), true;
            if (!object && key == health)
                return push_texts(&out_.health, "health holds something other than text"), true;
            if (key == schema_version) schema_problem_ = "schema_version is not an integer";
            else fail(std::string(kRootKeys[static_cast<std::size_t>(key)]) + root_expected(key));
            break;
        case Context::devices:
            if (!object) return fail("a device is not an object"), skip_nested(), true;
            if (out_.devices.size() >= max_devices_)  // stops the parse: memory stays bounded
                return over_limit_ = "more than " + std::to_string(max_devices_) + " GPUs", false;
            out_.devices.emplace_back();  // filled where it lies (a Device is ~700 bytes)
            return levels_.push_back(Level{Context::device}), true;
        case Context::processes:
            if (!object) return fail("a process is not an object"), skip_nested(), true;
            if (out_.processes.size() >= max_processes_)
                return over_limit_ = "more than " + std::to_string(max_processes_) + " process rows", false;
            out_.processes.emplace_back();
            return levels_.push_back(Level{Context::process}), true;
        case Context::device:
            if (!object && is_text_list(json_fields::kDevice, key)) {
                const auto member = std::get<std::vector<std::string> Device::*>(
                    json_fields::kDevice[static_cast<std::size_t>(key)].member);
                level.given |= std::uint64_t{1} << key;
                return push_texts(&(out_.devices.back().*member), "health holds something other than text"), true;
            }
            if (key >= 0)
                fail(std::string(json_fields::kDevice[static_cast<std::size_t>(key)].key) +
                     expected<Device>(json_fields::kDevice[static_cast<std::size_t>(key)].member));
            break;
        case Context::host:
            if (key >= 0)
                fail(std::string(json_fields::kHost[static_cast<std::size_t>(key)].key) +
                     expected<HostMetrics>(json_fields::kHost[static_cast<std::size_t>(key)].member));
            break;
        case Context::process:
            if (key >= 0) fail(process_value_error(key));
            break;
        case Context::texts: fail(level.item_error); break;
    }
    skip_nested();
    return true;
}

// A process's key that met an object or a list; each key range names its own table.
std::string SnapshotHandler::process_value_error(int key) {
    if (key == kStatusKey) return "status is not a string";
    if (key >= kProcessDriverKey) {
        const auto& field = json_fields::kProcessDriver[static_cast<std::size_t>(key - kProcessDriverKey)];
        return std::string(field.key) + expected<GpuProcess>(field.member);
    }
    if (key >= kAttributionKey)
        return std::string(json_fields::kAttribution[static_cast<std::size_t>(key - kAttributionKey)].key) +
               " is not a string";
    const auto& field = json_fields::kProcess[static_cast<std::size_t>(key)];
    return std::string(field.key) + expected<GpuProcess>(field.member);
}

bool SnapshotHandler::close() {
    if (capture_) {
        if (capture_->close()) finish_capture();
        return true;
    }
    if (skip_depth_ > 0) return --skip_depth_, true;
    if (levels_.empty()) return true;
    const Level done = std::move(levels_.back());
    levels_.pop_back();
    if (done.context == Context::device) {
        if (auto absent = missing(json_fields::kDevice, done.given)) fail(*absent);
    } else if (done.context == Context::process) {
        if (auto absent = missing(json_fields::kProcess, done.given)) fail(*absent);
        bool known = false;
        for (auto status :
             {ProcessStatus::ok, ProcessStatus::access_denied, ProcessStatus::exited, ProcessStatus::unverified})
            if (done.status && *done.status == to_string(status)) {
                out_.processes.back().status = status;
                known = true;
            }
        if (!known) fail("process status is not ok, access_denied, exited or unverified");
    }
    return true;
}

std::optional<std::string> SnapshotHandler::problem() const {
    if (!root_is_object_) return "not a JSON object";
    if (schema_problem_) return "invalid snapshot: " + *schema_problem_;
    if (!schema_) return "no schema_version: not a musatop snapshot";
    if (*schema_ != 1) return "schema_version " + std::to_string(*schema_) + " is not 1";
    if (problem_) return "invalid snapshot: " + *problem_;
    for (const int key : {sampled_at, host, devices, processes, devices_stale, processes_stale, errors}) {
        if (seen_ >> key & 1) continue;
        const std::string name(kRootKeys[static_cast<std::size_t>(key)]);
        return "invalid snapshot: " + (key == sampled_at ? "missing " + name : name + root_expected(key));
    }
    return std::nullopt;
}

}  // namespace musatop::json_input
