#include "musatop/output/query_csv.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <functional>

#include "musatop/output/sanitize.hpp"

namespace musatop::query {

// What a value is and how it prints: nvidia-smi writes whole units for percentages,
// MiB and MHz, two decimals for watts.
enum class Shape { text, integer, percent, mib, watts, mhz };

struct Field {
    std::string_view name;
    std::string_view alias;  // nvidia-smi's other spelling, "" for none
    std::string_view unit;   // in the header "[%]" and after the value, "" for none
    Shape shape;
    // GPU fields read the device; process fields the row and its GPU.
    std::function<std::optional<std::string>(const Device&, const Snapshot&)> gpu;
    std::function<std::optional<std::string>(const GpuProcess&, const Device*)> app;
};

namespace {

using Text = std::optional<std::string>;

template <typename T>
Text number(const std::optional<T>& value) {
    if (!value || !std::isfinite(static_cast<double>(*value))) return std::nullopt;
    return std::to_string(static_cast<double>(*value));
}

Text mib(const std::optional<std::int64_t>& bytes) { return bytes ? Text(std::to_string(*bytes >> 20)) : std::nullopt; }

// "2026/12/04 21:31:34.123", local time, as nvidia-smi stamps a query.
Text timestamp(const Snapshot& s) {
    const auto since = s.sampled_at.time_since_epoch();
    const std::time_t seconds = std::chrono::duration_cast<std::chrono::seconds>(since).count();
    const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(since).count() % 1000;
    std::tm local{};
    ::localtime_r(&seconds, &local);
    char text[40];
    std::strftime(text, sizeof text, "%Y/%m/%d %H:%M:%S", &local);
    char out[48];
    std::snprintf(out, sizeof out, "%s.%03d", text, static_cast<int>(millis));
    return out;
}

const std::array<Field, 21> kGpuFields = {{
    {"timestamp", "", "", Shape::text, [](const Device&, const Snapshot& s) { return timestamp(s); }, {}},
    {"driver_version", "", "", Shape::text, [](const Device&, const Snapshot& s) { return s.driver_version; }, {}},
    {"index",
     "",
     "",
     Shape::integer,
     [](const Device& d, const Snapshot&) { return Text(std::to_string(d.index)); },
     {}},
    {"name", "gpu_name", "", Shape::text, [](const Device& d, const Snapshot&) { return d.name; }, {}},
    {"uuid", "gpu_uuid", "", Shape::text, [](const Device& d, const Snapshot&) { return d.uuid; }, {}},
    {"pci.bus_id", "gpu_bus_id", "", Shape::text, [](const Device& d, const Snapshot&) { return d.bus_id; }, {}},
    {"utilization.gpu",
     "",
     "%",
     Shape::percent,
     [](const Device& d, const Snapshot&) { return number(d.gpu_utilization_percent); },
     {}},
    {"utilization.memory",
     "",
     "%",
     Shape::percent,
     [](const Device& d, const Snapshot&) { return number(d.memory_utilization_percent); },
     {}},
    {"memory.total",
     "",
     "MiB",
     Shape::mib,
     [](const Device& d, const Snapshot&) { return mib(d.memory_total_bytes); },
     {}},
    {"memory.used",
     "",
     "MiB",
     Shape::mib,
     [](const Device& d, const Snapshot&) { return mib(d.memory_used_bytes); },
     {}},
    {"memory.free",
     "",
     "MiB",
     Shape::mib,
     [](const Device& d, const Snapshot&) { return mib(d.memory_free_bytes); },
     {}},
    {"temperature.gpu",
     "",
     "",
     Shape::integer,
     [](const Device& d, const Snapshot&) { return number(d.temperature_c); },
     {}},
    {"power.draw", "", "W", Shape::watts, [](const Device& d, const Snapshot&) { return number(d.power_draw_w); }, {}},
    {"power.limit",
     "",
     "W",
     Shape::watts,
     [](const Device& d, const Snapshot&) { return number(d.power_limit_w); },
     {}},
    {"clocks.gr",
     "clocks.current.graphics",
     "MHz",
     Shape::mhz,
     [](const Device& d, const Snapshot&) { return number(d.graphics_clock_mhz); },
     {}},
    {"clocks.mem",
     "clocks.current.memory",
     "MHz",
     Shape::mhz,
     [](const Device& d, const Snapshot&) { return number(d.memory_clock_mhz); },
     {}},
    {"clocks.max.gr",
     "clocks.max.graphics",
     "MHz",
     Shape::mhz,
     [](const Device& d, const Snapshot&) { return number(d.graphics_clock_max_mhz); },
     {}},
    {"fan.speed",
     "",
     "%",
     Shape::percent,
     [](const Device& d, const Snapshot&) { return number(d.fan_speed_percent); },
     {}},
    {"pstate", "", "", Shape::text, [](const Device& d, const Snapshot&) { return d.performance_state; }, {}},
    {"pcie.link.gen.current",
     "",
     "",
     Shape::integer,
     [](const Device& d, const Snapshot&) { return number(d.pcie_generation_current); },
     {}},
    {"pcie.link.width.current",
     "",
     "",
     Shape::integer,
     [](const Device& d, const Snapshot&) { return number(d.pcie_link_width_current); },
     {}},
}};

const std::array<Field, 5> kAppFields = {{
    {"pid", "", "", Shape::integer, {}, [](const GpuProcess& p, const Device*) { return Text(std::to_string(p.pid)); }},
    {"process_name", "name", "", Shape::text, {}, [](const GpuProcess& p, const Device*) { return p.command; }},
    {"used_memory",
     "used_gpu_memory",
     "MiB",
     Shape::mib,
     {},
     [](const GpuProcess& p, const Device*) { return mib(p.gpu_memory_bytes); }},
    {"gpu_uuid",
     "",
     "",
     Shape::text,
     {},
     [](const GpuProcess& p, const Device* d) { return p.device_uuid ? p.device_uuid
                                                       : d           ? d->uuid
                                                                     : std::nullopt; }},
    {"gpu_bus_id",
     "",
     "",
     Shape::text,
     {},
     [](const GpuProcess&, const Device* d) { return d ? d->bus_id : std::nullopt; }},
}};

template <std::size_t N>
const Field* find(const std::array<Field, N>& table, std::string_view name) {
    for (const auto& field : table)
        if (field.name == name || (!field.alias.empty() && field.alias == name)) return &field;
    return nullptr;
}

std::string_view trimmed(std::string_view text) {
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
    return text;
}

// A value as nvidia-smi prints it: whole numbers, watts with two decimals, the
// unit after a space; text sanitised, and quoted where a comma or quote would
// otherwise split the line (RFC 4180; nvidia-smi does not quote).
std::string printed(const Field& field, const Text& value, bool units) {
    if (!value) return "[N/A]";
    std::string out;
    if (field.shape == Shape::text) {
        out = sanitize(*value);
        // A cell a spreadsheet would take for a formula (a process named
        // "=HYPERLINK(...)") starts with ' as OWASP's CSV advice has it: text again.
        if (!out.empty() && std::string_view("=+-@").find(out.front()) != std::string_view::npos) out.insert(0, "'");
        if (out.find_first_of(",\"") != std::string::npos) {
            std::string quoted = "\"";
            for (char c : out) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
            out = quoted + "\"";
        }
    } else if (field.shape == Shape::integer && value->find('.') == std::string::npos) {
        out = *value;
    } else {
        const double number = std::stod(*value);
        char text[64];
        std::snprintf(text, sizeof text, field.shape == Shape::watts ? "%.2f" : "%.0f", number);
        out = text;
    }
    return units && !field.unit.empty() ? out + " " + std::string(field.unit) : out;
}

template <typename Each>
std::string line(const QuerySpec& spec, Each value_of) {
    std::string out;
    for (std::size_t i = 0; i < spec.fields.size(); ++i)
        out += (i ? ", " : "") + printed(*spec.fields[i], value_of(*spec.fields[i]), spec.units);
    return out + "\n";
}

}  // namespace

Result<QuerySpec> parse_query(Kind kind, std::string_view fields, std::string_view format) {
    QuerySpec spec;
    spec.kind = kind;
    const std::string flag = kind == Kind::gpu ? "--query-gpu" : "--query-compute-apps";
    for (std::size_t start = 0; start <= fields.size();) {
        const auto comma = std::min(fields.find(',', start), fields.size());
        const auto name = trimmed(fields.substr(start, comma - start));
        start = comma + 1;
        if (name.empty()) continue;
        const Field* field = kind == Kind::gpu ? find(kGpuFields, name) : find(kAppFields, name);
        if (!field)
            return Error{"argument " + flag + ": field \"" + sanitize(name) +
                         "\" is not a valid field to query (docs/query.md lists them)"};
        spec.fields.push_back(field);
    }
    if (spec.fields.empty()) return Error{"argument " + flag + ": no fields"};
    bool csv = false;
    for (std::size_t start = 0; start <= format.size();) {
        const auto comma = std::min(format.find(',', start), format.size());
        const auto word = trimmed(format.substr(start, comma - start));
        start = comma + 1;
        if (word == "csv") csv = true;
        else if (word == "noheader") spec.header = false;
        else if (word == "nounits") spec.units = false;
        else if (!word.empty())
            return Error{"argument --format: \"" + sanitize(word) + "\" is not csv, noheader or nounits"};
    }
    if (!csv) return Error{"argument --format: csv is required (--format=csv[,noheader][,nounits])"};
    return spec;
}

std::string query_header(const QuerySpec& spec) {
    std::string out;
    for (std::size_t i = 0; i < spec.fields.size(); ++i) {
        const Field& field = *spec.fields[i];
        // nvidia-smi heads the used_memory column "used_gpu_memory".
        const std::string_view name = field.name == "used_memory" ? field.alias : field.name;
        out += (i ? ", " : "") + std::string(name) + (field.unit.empty() ? "" : " [" + std::string(field.unit) + "]");
    }
    return out + "\n";
}

std::string query_rows(const QuerySpec& spec, const Snapshot& snapshot) {
    std::string out;
    if (spec.kind == Kind::gpu) {
        for (const auto& device : snapshot.devices)
            out += line(spec, [&](const Field& field) { return field.gpu(device, snapshot); });
        return out;
    }
    for (const auto& process : snapshot.processes) {
        const Device* device = nullptr;
        for (const auto& d : snapshot.devices)
            if (d.index == process.device_index) device = &d;
        out += line(spec, [&](const Field& field) { return field.app(process, device); });
    }
    return out;
}

std::vector<std::string_view> field_names(Kind kind) {
    std::vector<std::string_view> names;
    if (kind == Kind::gpu)
        for (const auto& field : kGpuFields) names.push_back(field.name);
    else
        for (const auto& field : kAppFields) names.push_back(field.name);
    return names;
}

}  // namespace musatop::query
