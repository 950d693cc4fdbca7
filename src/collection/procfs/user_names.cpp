#include "musatop/collection/procfs/user_names.hpp"

#include <pwd.h>
#include <unistd.h>

#include <charconv>
#include <fstream>
#include <iterator>
#include <optional>
#include <vector>

#include "musatop/util/subprocess.hpp"
#include "musatop/util/version.hpp"
#include "musatop/util/text.hpp"
#include "musatop/util/utf8.hpp"

namespace musatop::procfs {
namespace {

constexpr std::size_t kMaxNameBytes = 64;

// The user database through glibc, which loads the host's NSS modules: a static
// binary must not (they are built against another glibc, docs/portable.md), so it
// reads /etc/passwd itself and asks getent for the rest.
std::optional<std::string> from_passwd_database(std::uint32_t uid) {
    if (std::string_view(kBuildKind) == "static") {
        std::ifstream file("/etc/passwd");
        const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
        auto names = parse_getent_passwd(text);
        const auto found = names.find(uid);
        return found == names.end() ? std::nullopt : std::optional<std::string>(found->second);
    }
    const long size = ::sysconf(_SC_GETPW_R_SIZE_MAX);
    std::vector<char> buffer(static_cast<std::size_t>(size > 0 ? size : 16384));
    passwd entry{};
    passwd* found = nullptr;
    if (::getpwuid_r(uid, &entry, buffer.data(), buffer.size(), &found) == 0 && found && found->pw_name)
        return std::string(found->pw_name);
    return std::nullopt;
}

}  // namespace

std::map<std::uint32_t, std::string> parse_getent_passwd(std::string_view text) {
    std::map<std::uint32_t, std::string> out;
    for (const auto line : text::split_lines(text)) {
        const auto fields = text::split(line, ':');
        if (fields.size() < 3 || fields[0].empty()) continue;
        std::uint32_t uid = 0;
        const auto [end, error] = std::from_chars(fields[2].data(), fields[2].data() + fields[2].size(), uid);
        if (error != std::errc{} || end != fields[2].data() + fields[2].size()) continue;
        std::string name;
        for (const char c : utf8::repair(fields[0].substr(0, kMaxNameBytes)))
            if (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f) name += c;
        if (!name.empty()) out.emplace(uid, std::move(name));
    }
    return out;
}

void UserNames::resolve(const std::set<std::uint32_t>& uids) {
    std::vector<std::string> unknown;
    for (const auto uid : uids) {
        if (known_.count(uid)) continue;
        if (auto name = from_passwd_database(uid)) known_.emplace(uid, std::move(*name));
        else unknown.push_back(std::to_string(uid));
    }
    if (unknown.empty()) return;
    const auto getent = subprocess::resolve_executable("getent", path_);
    if (getent.status == subprocess::ExecutableLookup::Status::found) {
        subprocess::CommandSpec spec;
        spec.argv = {getent.path, "passwd"};
        spec.argv.insert(spec.argv.end(), unknown.begin(), unknown.end());
        spec.display_name = "getent";
        spec.timeout = timeout_;
        subprocess::RunLimits limits;
        limits.max_output_bytes = 1 << 20;
        const auto outcomes = subprocess::run_commands({spec}, {}, limits);
        // getent exits 2 when some keys were not found; what it printed still counts.
        if (!outcomes.empty() && outcomes.front().kind == subprocess::CommandOutcome::Kind::exited)
            for (auto& [uid, name] : parse_getent_passwd(outcomes.front().stdout_text))
                known_.emplace(uid, std::move(name));
    }
    for (const auto& text : unknown) {
        const auto uid = static_cast<std::uint32_t>(std::stoul(text));
        known_.emplace(uid, text);  // asked once: a UID nobody knows stays a number
    }
}

std::string UserNames::name(std::uint32_t uid) {
    const auto found = known_.find(uid);
    return found != known_.end() ? found->second : std::to_string(uid);
}

}  // namespace musatop::procfs
