#include "musatop/output/gpustat_text.hpp"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "musatop/output/format.hpp"
#include "musatop/output/sanitize.hpp"

namespace musatop {
namespace {

std::string mib(const std::optional<std::int64_t>& bytes) { return bytes ? std::to_string(*bytes >> 20) : "??"; }

std::string whole(const std::optional<double>& value, int width) {
    return pad_left(value && std::isfinite(*value) ? std::to_string(std::lround(*value)) : "??", width);
}

// gpustat's process name: the program, without its directory or arguments.
std::string program_of(const std::optional<std::string>& command) {
    if (!command) return "??";
    const std::string first = command->substr(0, command->find(' '));
    const auto slash = first.rfind('/');
    return slash == std::string::npos ? first : first.substr(slash + 1);
}

std::string process_text(const GpuProcess& p, const GpustatStyle& style) {
    const Paint& paint = style.paint;
    std::string who;
    if (!style.show_cmd || style.show_user) who = paint(Ink::user, sanitize(p.username.value_or("??")));
    if (style.show_cmd) {
        const std::string command = style.whole_command ? p.command.value_or("??") : program_of(p.command);
        who += (who.empty() ? "" : ":") + sanitize(command);
    }
    if (style.show_pid) who += "/" + std::to_string(p.pid);
    return who + "(" + paint(Ink::memory, mib(p.gpu_memory_bytes) + "M") + ")";
}

// "45°C,  30 %,  12 % (E:   0 %  D:   0 %), 300 / 450 W"
std::string readings(const Device& d, const GpustatStyle& style) {
    const Paint& paint = style.paint;
    std::string text = paint(Ink::temperature, whole(d.temperature_c, 2) + "\xc2\xb0" + "C") + ", ";
    if (style.show_fan) text += whole(d.fan_speed_percent, 3) + " %, ";
    text += paint(Ink::util, whole(d.gpu_utilization_percent, 3) + " %");
    if (style.show_codec)
        text += " (E: " + whole(d.encoder_utilization_percent, 3) +
                " %  D: " + whole(d.decoder_utilization_percent, 3) + " %)";
    if (style.show_power_draw && style.show_power_limit)
        text += ", " + whole(d.power_draw_w, 3) + " / " + whole(d.power_limit_w, 3) + " W";
    else if (style.show_power_draw) text += ", " + whole(d.power_draw_w, 3) + " W";
    else if (style.show_power_limit) text += ", " + whole(d.power_limit_w, 3) + " W";
    return text;
}

// "  └─  4242 ( 12%,  1.2GiB): python train.py --epochs 3"
std::string full_command_line(const GpuProcess& p, bool last, bool ascii_tree) {
    const std::string branch =
        ascii_tree ? (last ? " `-" : " |-") : (last ? " \xe2\x94\x94\xe2\x94\x80" : " \xe2\x94\x9c\xe2\x94\x80");
    return branch + " " + pad_left(std::to_string(p.pid), 7) + " (" + pad_left(format_number(p.cpu_percent, "%"), 5) +
           ", " + pad_left(format_bytes(p.rss_bytes), 8) + "): " + sanitize_or_na(p.command);
}

}  // namespace

std::vector<std::string> gpustat_lines(const Snapshot& view, const GpustatStyle& style) {
    int name_width = 0;
    for (const auto& d : view.devices) name_width = std::max(name_width, display_width(sanitize_or_na(d.name)));
    if (style.name_width) name_width = *style.name_width;
    std::vector<std::string> lines;
    for (const auto& d : view.devices) {
        const std::string name = style.name_width ? fit_right(sanitize_or_na(d.name), name_width)
                                                  : pad_right(sanitize_or_na(d.name), name_width);
        std::string line = style.paint(Ink::index, "[" + std::to_string(d.index) + "]") + " " +
                           style.paint(Ink::name, name) + " | " + readings(d, style) + " | " +
                           style.paint(Ink::memory, pad_left(mib(d.memory_used_bytes), 5)) + " / " +
                           style.paint(Ink::memory, pad_left(mib(d.memory_total_bytes), 5)) + " MB |";
        std::vector<const GpuProcess*> mine;
        for (const auto& p : view.processes)
            if (p.device_index == d.index) mine.push_back(&p);
        if (!style.no_processes)
            for (const auto* p : mine) line += " " + process_text(*p, style);
        lines.push_back(std::move(line));
        if (style.full_cmd && !style.no_processes)
            for (std::size_t i = 0; i < mine.size(); ++i)
                lines.push_back(full_command_line(*mine[i], i + 1 == mine.size(), false));
    }
    return lines;
}

std::string gpustat_json(const Snapshot& view) {
    using json = nlohmann::ordered_json;
    const auto value = [](const auto& optional) { return optional ? json(*optional) : json(nullptr); };
    const auto rounded = [](const std::optional<double>& v) {
        return v && std::isfinite(*v) ? json(std::lround(*v)) : json(nullptr);
    };
    const auto megabytes = [](const std::optional<std::int64_t>& bytes) {
        return bytes ? json(*bytes >> 20) : json(nullptr);
    };
    json out;
    out["hostname"] = value(view.host.hostname);
    out["driver_version"] = value(view.driver_version);
    out["query_time"] = format_iso8601(view.sampled_at);
    out["gpus"] = json::array();
    for (const auto& d : view.devices) {
        json gpu;
        gpu["index"] = d.index;
        gpu["uuid"] = value(d.uuid);
        gpu["name"] = value(d.name);
        gpu["temperature.gpu"] = rounded(d.temperature_c);
        gpu["fan.speed"] = rounded(d.fan_speed_percent);
        gpu["utilization.gpu"] = rounded(d.gpu_utilization_percent);
        gpu["utilization.enc"] = rounded(d.encoder_utilization_percent);
        gpu["utilization.dec"] = rounded(d.decoder_utilization_percent);
        gpu["power.draw"] = rounded(d.power_draw_w);
        gpu["enforced.power.limit"] = rounded(d.power_limit_w);
        gpu["memory.used"] = megabytes(d.memory_used_bytes);
        gpu["memory.total"] = megabytes(d.memory_total_bytes);
        gpu["processes"] = json::array();
        for (const auto& p : view.processes) {
            if (p.device_index != d.index) continue;
            json args = json::array();
            const std::string command = p.command.value_or("");
            for (std::size_t start = 0; start < command.size();) {
                const auto space = std::min(command.find(' ', start), command.size());
                if (space > start) args.push_back(command.substr(start, space - start));
                start = space + 1;
            }
            gpu["processes"].push_back({{"username", value(p.username)},
                                        {"command", program_of(p.command)},
                                        {"full_command", args},
                                        {"gpu_memory_usage", megabytes(p.gpu_memory_bytes)},
                                        {"cpu_percent", value(p.cpu_percent)},
                                        {"cpu_memory_usage", value(p.rss_bytes)},
                                        {"pid", p.pid}});
        }
        out["gpus"].push_back(std::move(gpu));
    }
    return out.dump(4, ' ', true, json::error_handler_t::replace) + "\n";
}

}  // namespace musatop
