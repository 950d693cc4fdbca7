#include "musatop/collection/procfs/cgroup_parse.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <string>
#include <vector>

#include "musatop/util/text.hpp"

namespace musatop::procfs {
namespace {

using Parts = std::vector<std::string_view>;

constexpr std::size_t kMaxName = 255;  // NAME_MAX: longer is not a directory name

Parts split_path(std::string_view path) {
    Parts parts;
    while (!path.empty()) {
        const auto slash = path.find('/');
        const auto part = path.substr(0, slash);
        if (!part.empty()) parts.push_back(part);
        if (slash == std::string_view::npos) break;
        path.remove_prefix(slash + 1);
    }
    return parts;
}

std::string cleaned(std::string_view name) {
    std::string out(name.substr(0, kMaxName));
    for (char& c : out)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    return out;
}

bool is_hex_id(std::string_view id) {
    return id.size() >= 12 && id.size() <= 64 &&
           std::all_of(id.begin(), id.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

std::optional<std::int64_t> digits(std::string_view text) {
    std::int64_t value = 0;
    if (text.empty() || text.size() > 18 || !text::all_digits(text)) return std::nullopt;
    std::from_chars(text.data(), text.data() + text.size(), value);
    return value;
}

bool cut_prefix(std::string_view& text, std::string_view prefix) {
    if (!text.starts_with(prefix)) return false;
    text.remove_prefix(prefix.size());
    return true;
}

bool cut_suffix(std::string_view& text, std::string_view suffix) {
    if (!text.ends_with(suffix)) return false;
    text.remove_suffix(suffix.size());
    return true;
}

// "<prefix><64 hex>.scope" (systemd cgroup driver) for each runtime.
struct ScopePattern {
    std::string_view prefix;
    std::string_view runtime;
};
constexpr std::array<ScopePattern, 4> kScopes = {{
    {"docker-", "docker"},
    {"cri-containerd-", "containerd"},
    {"crio-", "cri-o"},
    {"libpod-", "podman"},
}};

void set_container(Attribution& a, std::optional<std::string_view> runtime, std::string_view id) {
    a.container_runtime = runtime ? std::optional<std::string>(std::string(*runtime)) : std::nullopt;
    a.container_id = cleaned(id);
}

// One component of a path, with the component before it (empty at the top).
void read_container(Attribution& a, std::string_view previous, std::string_view part) {
    std::string_view rest = part;
    for (const auto& scope : kScopes) {
        rest = part;
        if (cut_prefix(rest, scope.prefix) && cut_suffix(rest, ".scope") && is_hex_id(rest))
            return set_container(a, scope.runtime, rest);
    }
    // cgroupfs driver and the v1 layouts: /docker/<id>, /libpod_parent/libpod-<id>,
    // /lxc/<name>, /lxc.payload/<name>, lxc.payload.<name> (LXC 4 on cgroup v2).
    if (previous == "docker" && is_hex_id(part)) return set_container(a, "docker", part);
    rest = part;
    if (previous == "libpod_parent" && cut_prefix(rest, "libpod-") && is_hex_id(rest))
        return set_container(a, "podman", rest);
    if (previous == "lxc" || previous == "lxc.payload") return set_container(a, "lxc", part);
    rest = part;
    if (cut_prefix(rest, "lxc.payload.") && !rest.empty()) return set_container(a, "lxc", rest);
}

void read_pod(Attribution& a, const Parts& parts) {
    const bool kube =
        std::any_of(parts.begin(), parts.end(), [](std::string_view p) { return p.starts_with("kubepods"); });
    if (!kube) return;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        std::string_view part = parts[i];
        // systemd driver: kubepods-burstable-pod<uid with _>.slice; cgroupfs: pod<uid>
        std::string_view uid;
        if (cut_suffix(part, ".slice")) {
            const auto at = part.rfind("-pod");
            if (!part.starts_with("kubepods") || at == std::string_view::npos) continue;
            uid = part.substr(at + 4);
        } else if (cut_prefix(part, "pod")) {
            uid = part;
        } else {
            continue;
        }
        if (uid.size() < 8 || uid.size() > 64 || !std::all_of(uid.begin(), uid.end(), [](char c) {
                return std::isxdigit(static_cast<unsigned char>(c)) || c == '_' || c == '-';
            }))
            continue;
        std::string pod(uid);
        std::replace(pod.begin(), pod.end(), '_', '-');
        a.pod_uid = pod;
        a.pod_qos_class = "guaranteed";
        for (std::size_t j = 0; j < i; ++j) {
            if (parts[j].find("besteffort") != std::string_view::npos) a.pod_qos_class = "besteffort";
            if (parts[j].find("burstable") != std::string_view::npos) a.pod_qos_class = "burstable";
        }
        // cgroupfs driver: the container is a bare id under the pod; the runtime is unnamed.
        if (i + 1 < parts.size() && is_hex_id(parts[i + 1]) && !a.container_id)
            set_container(a, std::nullopt, parts[i + 1]);
    }
}

void read_slurm(Attribution& a, const Parts& parts) {
    bool under_slurm = false;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        std::string_view part = parts[i];
        if (part.starts_with("slurm")) under_slurm = true;
        if (!under_slurm || !cut_prefix(part, "job_")) continue;
        const auto job = digits(part);
        if (!job) continue;
        a.slurm_job_id = job;
        a.slurm_step.reset();
        if (i + 1 < parts.size()) {
            std::string_view step = parts[i + 1];
            if (cut_prefix(step, "step_") && !step.empty()) a.slurm_step = cleaned(step);
        }
    }
}

std::optional<std::string> innermost_unit(const Parts& parts) {
    for (auto it = parts.rbegin(); it != parts.rend(); ++it)
        if (it->ends_with(".service") || it->ends_with(".scope")) return cleaned(*it);
    return std::nullopt;
}

}  // namespace

Attribution parse_cgroup_attribution(std::string_view text) {
    // "ID:controllers:path" per line; v2 is "0::path", systemd's own v1 tree is
    // "N:name=systemd:path". The unified path is read first.
    std::vector<Parts> paths;
    std::optional<Parts> unified;
    std::optional<Parts> systemd_v1;
    for (auto line : text::split_lines(text)) {
        const auto first = line.find(':');
        if (first == std::string_view::npos) continue;
        const auto second = line.find(':', first + 1);
        if (second == std::string_view::npos || !text::all_digits(line.substr(0, first))) continue;
        const auto controllers = line.substr(first + 1, second - first - 1);
        const auto path = line.substr(second + 1);
        if (!path.starts_with('/')) continue;
        Parts parts = split_path(path);
        if (controllers.empty()) unified = parts;
        else if (controllers == "name=systemd") systemd_v1 = parts;
        paths.push_back(std::move(parts));
    }
    if (unified) paths.insert(paths.begin(), *unified);

    Attribution a;
    for (const auto& parts : paths) {
        Attribution found;
        for (std::size_t i = 0; i < parts.size(); ++i) read_container(found, i ? parts[i - 1] : "", parts[i]);
        read_pod(found, parts);
        read_slurm(found, parts);
        if (!a.container_id && found.container_id) {
            a.container_id = found.container_id;
            a.container_runtime = found.container_runtime;
        }
        if (!a.pod_uid && found.pod_uid) {
            a.pod_uid = found.pod_uid;
            a.pod_qos_class = found.pod_qos_class;
        }
        if (!a.slurm_job_id && found.slurm_job_id) {
            a.slurm_job_id = found.slurm_job_id;
            a.slurm_step = found.slurm_step;
        }
    }
    const auto& unit_path = (unified && !unified->empty()) ? unified : systemd_v1;
    if (unit_path) a.systemd_unit = innermost_unit(*unit_path);
    return a;
}

std::vector<CgroupMount> parse_cgroup_mounts(std::string_view mountinfo) {
    std::vector<CgroupMount> mounts;
    for (auto line : text::split_lines(mountinfo)) {
        // "35 25 0:30 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu": the
        // mount point is the fifth field; type, source and options follow " - ".
        const auto fields = text::split(line, ' ');
        const auto dash = line.find(" - ");
        if (fields.size() < 5 || dash == std::string_view::npos) continue;
        const auto after = text::split(line.substr(dash + 3), ' ');
        if (after.size() < 3) continue;
        if (after[0] == "cgroup2") {
            mounts.push_back({"", std::string(fields[4])});
        } else if (after[0] == "cgroup") {
            std::string options;
            for (auto option : text::split(after[2], ','))
                if (option != "rw" && option != "ro" && option.find('=') == std::string_view::npos)
                    options += (options.empty() ? "" : ",") + std::string(option);
                else if (option.starts_with("name=")) options += (options.empty() ? "" : ",") + std::string(option);
            mounts.push_back({options, std::string(fields[4])});
        }
    }
    return mounts;
}

std::string trusted_cgroup_text(std::string_view text,
                                const std::function<bool(std::string_view, std::string_view)>& trusted) {
    std::string out;
    for (auto line : text::split_lines(text)) {
        const auto first = line.find(':');
        const auto second = first == std::string_view::npos ? first : line.find(':', first + 1);
        if (second == std::string_view::npos) continue;
        const auto controllers = line.substr(first + 1, second - first - 1);
        const auto path = line.substr(second + 1);
        std::size_t kept = 0;  // the length of the trusted prefix of `path`
        for (std::size_t end = path.find('/', 1); kept < path.size();
             end = end == std::string_view::npos ? end : path.find('/', end + 1)) {
            const std::size_t stop = end == std::string_view::npos ? path.size() : end;
            if (!trusted(controllers, path.substr(0, stop))) break;
            kept = stop;
        }
        out.append(line.substr(0, second + 1)).append(kept ? path.substr(0, kept) : "/").append("\n");
    }
    return out;
}

}  // namespace musatop::procfs
