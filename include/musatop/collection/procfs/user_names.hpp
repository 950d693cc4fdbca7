// User names for the UIDs of GPU processes. getpwuid_r answers from /etc/passwd
// (and, in the dynamic build, from every NSS module the host configures); a UID it
// does not know (an LDAP or SSSD user seen by the static binary, which loads no
// NSS modules) is asked of the host's own `getent passwd`, once for all such UIDs
// of a round, killed after 2 s. Every answer is cached, a UID nobody knows as its
// number, so each UID costs at most one lookup for the life of the process.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>

namespace musatop::procfs {

// "name:x:uid:gid:..." lines into uid -> name; names are cut at 64 bytes, invalid
// UTF-8 repaired and control characters dropped. Pure.
std::map<std::uint32_t, std::string> parse_getent_passwd(std::string_view text);

class UserNames {
public:
    // `path`: where getent is looked for (PATH); empty for none.
    explicit UserNames(std::string path, std::chrono::milliseconds getent_timeout = std::chrono::seconds(2))
        : path_(std::move(path)), timeout_(getent_timeout) {}

    void resolve(const std::set<std::uint32_t>& uids);
    // The name, or the UID as a number when nothing knows it (call resolve first).
    std::string name(std::uint32_t uid);

private:
    std::string path_;
    std::chrono::milliseconds timeout_;
    std::map<std::uint32_t, std::string> known_;
};

}  // namespace musatop::procfs
