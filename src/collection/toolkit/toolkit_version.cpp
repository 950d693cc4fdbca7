#include "musatop/collection/toolkit/toolkit_version.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>
#include <vector>

#include <nlohmann/json.hpp>

#include "musatop/util/text.hpp"
#include "musatop/collection/procfs/proc_reader.hpp"
#include "musatop/util/utf8.hpp"

namespace musatop::toolkit {
namespace {

namespace fs = std::filesystem;

std::optional<std::string> env(const char* name) {
    const char* value = std::getenv(name);
    return value ? std::optional<std::string>(value) : std::nullopt;
}

std::optional<std::string> non_blank(const std::optional<std::string>& value) {
    if (!value || text::trim(*value).empty()) return std::nullopt;
    return std::string(text::trim(*value));
}

std::string expand_home(const std::string& path, const std::optional<std::string>& home) {
    if (home && (path == "~" || path.rfind("~/", 0) == 0)) return *home + path.substr(1);
    return path;
}

// Follows symlinks, a dangling one at the end included; a missing tail keeps its
// own name (like Python's resolve(strict=False)).
std::optional<fs::path> resolve(const fs::path& path, std::string& error) {
    std::error_code code;
    fs::path current = fs::absolute(path, code);
    for (int hops = 0; !code && hops < 40; ++hops) {
        const fs::path resolved = fs::weakly_canonical(current, code);
        if (code) break;
        const auto status = fs::symlink_status(resolved, code);
        if (code == std::errc::no_such_file_or_directory || (!code && !fs::is_symlink(status))) return resolved;
        if (code) break;
        const fs::path target = fs::read_symlink(resolved, code);
        current = target.is_absolute() ? target : resolved.parent_path() / target;
    }
    error = code ? code.message() : std::make_error_code(std::errc::too_many_symbolic_link_levels).message();
    return std::nullopt;
}

ToolkitVersion unknown(std::optional<std::string> source, std::string reason) {
    return ToolkitVersion{std::nullopt, std::move(source), std::move(reason)};
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alnum(char c) { return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

std::optional<std::string> find_mcc(const std::optional<std::string>& path_variable) {
    if (!path_variable) return std::nullopt;
    std::size_t start = 0;
    while (start <= path_variable->size()) {
        const auto end = std::min(path_variable->find(':', start), path_variable->size());
        const std::string directory = path_variable->substr(start, end - start);
        start = end + 1;
        if (directory.empty() || directory.front() != '/') continue;
        const std::string candidate = directory + "/mcc";
        struct stat info {};
        if (::stat(candidate.c_str(), &info) == 0 && S_ISREG(info.st_mode) && ::access(candidate.c_str(), X_OK) == 0)
            return candidate;
    }
    return std::nullopt;
}

ToolkitVersion read_root(const fs::path& root) { return read_toolkit_metadata((root / "version.json").string()); }

}  // namespace

bool is_valid_toolkit_version(const std::string& text) {
    std::size_t pos = 0;
    const auto digits = [&] {
        const std::size_t start = pos;
        while (pos < text.size() && is_digit(text[pos])) ++pos;
        return pos > start;
    };
    if (!digits()) return false;
    while (pos + 1 < text.size() && text[pos] == '.' && is_digit(text[pos + 1])) {
        ++pos;
        digits();
    }
    if (pos == text.size()) return true;
    if (std::string_view("-+._").find(text[pos]) == std::string_view::npos) return false;
    if (++pos >= text.size() || !is_alnum(text[pos])) return false;
    for (++pos; pos < text.size(); ++pos)
        if (!is_alnum(text[pos]) && std::string_view("._+-").find(text[pos]) == std::string_view::npos) return false;
    return true;
}

MetadataVersion parse_toolkit_metadata(std::string_view content) {
    if (utf8::repair(content) != content)
        return MetadataVersion{std::nullopt, "Toolkit metadata is not valid UTF-8 JSON"};
    const auto document = nlohmann::json::parse(content, nullptr, false);
    if (document.is_discarded()) return MetadataVersion{std::nullopt, "Toolkit metadata is not valid UTF-8 JSON"};
    const MetadataVersion invalid{std::nullopt, "Toolkit metadata has no valid musa_toolkits.version string"};
    if (!document.is_object() || !document.contains("musa_toolkits")) return invalid;
    const auto& toolkits = document["musa_toolkits"];
    if (!toolkits.is_object() || !toolkits.contains("version") || !toolkits["version"].is_string()) return invalid;
    const std::string version(text::trim(toolkits["version"].get<std::string>()));
    if (!is_valid_toolkit_version(version)) return invalid;
    return MetadataVersion{version, {}};
}

ToolkitVersion read_toolkit_metadata(const std::string& source) {
    const auto file = procfs::read_file(source);
    if (file.error == ENOENT || file.error == ENOTDIR) return unknown(source, "Toolkit metadata file is missing");
    if (!file.ok()) return unknown(source, std::string("Toolkit metadata is unreadable: ") + std::strerror(file.error));
    auto parsed = parse_toolkit_metadata(file.content);
    if (!parsed.version) return unknown(source, std::move(parsed.reason));
    return ToolkitVersion{std::move(parsed.version), source, std::nullopt};
}

SearchPlaces search_places_from_environment() {
    SearchPlaces places;
    places.musa_home = env("MUSA_HOME");
    places.musa_path = env("MUSA_PATH");
    places.path = env("PATH");
    places.home = env("HOME");
    return places;
}

ToolkitVersion detect_toolkit_version(const SearchPlaces& places) {
    std::string error;
    std::set<fs::path> explicit_roots;
    for (const auto& variable : {places.musa_home, places.musa_path}) {
        const auto value = non_blank(variable);
        if (!value) continue;
        const auto root = resolve(expand_home(*value, places.home), error);
        if (!root) return unknown(std::nullopt, "Cannot resolve explicitly selected Toolkit installation: " + error);
        explicit_roots.insert(*root);
    }
    if (explicit_roots.size() > 1)
        return unknown(std::nullopt, "MUSA_HOME and MUSA_PATH select different Toolkit installations");
    if (explicit_roots.size() == 1) return read_root(*explicit_roots.begin());

    if (const auto mcc = find_mcc(places.path)) {
        const auto resolved = resolve(*mcc, error);
        if (!resolved) return unknown(std::nullopt, "Cannot resolve PATH mcc installation: " + error);
        return read_root(resolved->parent_path().parent_path());
    }

    const std::string default_source = places.default_root + "/version.json";
    struct stat info {};
    if (::lstat(places.default_root.c_str(), &info) == 0) {
        const auto root = resolve(places.default_root, error);
        if (!root) return unknown(default_source, "Cannot resolve default Toolkit installation: " + error);
        return read_root(*root);
    }
    if (errno != ENOENT && errno != ENOTDIR)
        return unknown(default_source,
                       std::string("Cannot inspect default Toolkit installation: ") + std::strerror(errno));

    std::set<fs::path> installs;
    std::error_code code;
    fs::directory_iterator entries(places.versioned_parent, code);
    if (code && code != std::errc::no_such_file_or_directory)
        return unknown(std::nullopt, "Cannot discover Toolkit installations: " + code.message());
    for (; !code && entries != fs::directory_iterator(); entries.increment(code)) {
        const auto name = entries->path().filename().string();
        if (name.rfind("musa-", 0) != 0) continue;
        std::error_code kind_error;
        if (!entries->is_directory(kind_error) && !entries->is_symlink(kind_error)) continue;
        if (const auto root = resolve(entries->path(), error)) installs.insert(*root);
    }
    if (code) return unknown(std::nullopt, "Cannot discover Toolkit installations: " + code.message());
    if (installs.size() > 1)
        return unknown(std::nullopt, "Multiple Toolkit installations found; select one with MUSA_HOME or MUSA_PATH");
    if (installs.size() == 1) return read_root(*installs.begin());
    return unknown(std::nullopt, "No MUSA Toolkit installation found");
}

}  // namespace musatop::toolkit
