#include "musatop/collection/procfs/proc_parse.hpp"

#include <charconv>
#include <cmath>
#include <map>
#include <vector>

#include "musatop/util/text.hpp"

namespace musatop::procfs {
namespace {

std::vector<std::string_view> fields(std::string_view text) { return text::split_whitespace(text); }

template <typename T>
std::optional<T> to_number(std::string_view text) {
    T value{};
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size()) return std::nullopt;
    return value;
}

// The line that starts with `key` (e.g. "Uid:"), without the key.
std::optional<std::string_view> line_after(std::string_view text, std::string_view key) {
    std::size_t pos = 0;
    while (pos < text.size()) {
        const auto end = std::min(text.find('\n', pos), text.size());
        const auto line = text.substr(pos, end - pos);
        if (line.substr(0, key.size()) == key) return line.substr(key.size());
        pos = end + 1;
    }
    return std::nullopt;
}

}  // namespace

std::optional<ProcStat> parse_proc_stat(std::string_view text) {
    const auto open = text.find('(');
    const auto close = text.rfind(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) return std::nullopt;
    ProcStat stat;
    stat.comm = std::string(text.substr(open + 1, close - open - 1));
    // Fields after the name start at field 3 (state); utime is 14, stime 15, starttime 22.
    const auto rest = fields(text.substr(close + 1));
    if (rest.size() < 20 || rest[0].size() != 1) return std::nullopt;
    stat.state = rest[0][0];
    const auto utime = to_number<std::uint64_t>(rest[11]);
    const auto stime = to_number<std::uint64_t>(rest[12]);
    const auto start = to_number<std::uint64_t>(rest[19]);
    if (!utime || !stime || !start) return std::nullopt;
    stat.utime_ticks = *utime;
    stat.stime_ticks = *stime;
    stat.start_ticks = *start;
    return stat;
}

std::optional<std::uint32_t> parse_status_real_uid(std::string_view text) {
    const auto line = line_after(text, "Uid:");
    if (!line) return std::nullopt;
    const auto values = fields(*line);
    if (values.empty()) return std::nullopt;
    return to_number<std::uint32_t>(values[0]);
}

std::optional<std::int64_t> parse_status_tgid(std::string_view text) {
    const auto line = line_after(text, "Tgid:");
    if (!line) return std::nullopt;
    const auto values = fields(*line);
    if (values.empty()) return std::nullopt;
    return to_number<std::int64_t>(values[0]);
}

std::size_t parse_status_nspid_depth(std::string_view text) {
    const auto line = line_after(text, "NSpid:");
    return line ? fields(*line).size() : 0;
}

std::optional<std::uint64_t> parse_statm_resident_pages(std::string_view text) {
    const auto values = fields(text);
    if (values.size() < 2) return std::nullopt;
    return to_number<std::uint64_t>(values[1]);
}

bool mountinfo_hides_processes(std::string_view mountinfo) {
    for (auto line : text::split_lines(mountinfo)) {
        // "36 25 0:5 / /proc rw,nosuid - proc proc rw,hidepid=2": the mount point is
        // the fifth field; the file system's own options follow " - TYPE SOURCE ".
        const auto fields = text::split(line, ' ');
        if (fields.size() < 5 || fields[4] != "/proc") continue;
        const auto dash = line.find(" - proc ");
        if (dash == std::string_view::npos) continue;
        for (auto option : text::split(line.substr(line.rfind(' ') + 1), ','))
            if (option == "hidepid=1" || option == "hidepid=2" || option == "hidepid=noaccess" ||
                option == "hidepid=invisible")
                return true;
    }
    return false;
}

std::string join_cmdline(std::string_view raw, std::size_t max_bytes) {
    while (!raw.empty() && raw.back() == '\0') raw.remove_suffix(1);
    constexpr std::string_view kCut = "\u2026";
    bool cut = false;
    if (raw.size() > max_bytes && max_bytes >= kCut.size()) {
        std::size_t keep = max_bytes - kCut.size();
        while (keep > 0 && (static_cast<unsigned char>(raw[keep]) & 0xC0) == 0x80) --keep;  // not mid-character
        raw = raw.substr(0, keep);
        cut = true;
    }
    std::string joined(raw);
    if (cut) joined.append(kCut);
    for (char& c : joined)
        if (c == '\0') c = ' ';
    return joined;
}

std::optional<CpuTimes> parse_cpu_times(std::string_view proc_stat) {
    const auto line = line_after(proc_stat, "cpu ");
    if (!line) return std::nullopt;
    const auto values = fields(*line);
    if (values.size() < 4) return std::nullopt;
    std::vector<std::uint64_t> ticks;
    for (auto value : values) {
        const auto number = to_number<std::uint64_t>(value);
        if (!number) return std::nullopt;
        ticks.push_back(*number);
    }
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < ticks.size() && i < 8; ++i) total += ticks[i];  // guest is inside user
    const std::uint64_t idle = ticks[3] + (ticks.size() > 4 ? ticks[4] : 0);
    return CpuTimes{total - idle, total};
}

std::optional<std::int64_t> parse_boot_time(std::string_view proc_stat) {
    const auto line = line_after(proc_stat, "btime ");
    if (!line) return std::nullopt;
    const auto values = fields(*line);
    return values.empty() ? std::nullopt : to_number<std::int64_t>(values[0]);
}

std::optional<MemoryInfo> parse_meminfo(std::string_view text) {
    std::map<std::string_view, std::int64_t> kib;
    for (auto name : {"MemTotal:", "MemFree:", "MemAvailable:", "Buffers:", "Cached:", "SReclaimable:"}) {
        const auto line = line_after(text, name);
        if (!line) continue;
        const auto values = fields(*line);
        if (values.empty()) continue;
        if (const auto value = to_number<std::int64_t>(values[0]); value && *value >= 0 && *value < (1LL << 50))
            kib[name] = *value;
    }
    if (!kib.count("MemTotal:")) return std::nullopt;
    const std::int64_t total = kib["MemTotal:"];
    std::int64_t used = 0;
    if (kib.count("MemAvailable:")) {
        used = total - kib["MemAvailable:"];
    } else if (kib.count("MemFree:")) {
        used = total - kib["MemFree:"] - kib["Buffers:"] - kib["Cached:"] - kib["SReclaimable:"];
        if (used < 0) used = total - kib["MemFree:"];
    } else {
        return std::nullopt;
    }
    if (used < 0) used = 0;
    return MemoryInfo{total * 1024, used * 1024};
}

double create_time_seconds(std::int64_t boot_time, std::uint64_t start_ticks, long ticks_per_second) {
    const double seconds = static_cast<double>(boot_time) + static_cast<double>(start_ticks) / ticks_per_second;
    return std::round(seconds * 100.0) / 100.0;
}

double cpu_percent_between(const CpuTimes& before, const CpuTimes& after) {
    if (after.total_ticks <= before.total_ticks || after.busy_ticks <= before.busy_ticks) return 0.0;
    const double busy = static_cast<double>(after.busy_ticks - before.busy_ticks);
    const double total = static_cast<double>(after.total_ticks - before.total_ticks);
    return std::round(busy / total * 1000.0) / 10.0;
}

}  // namespace musatop::procfs
