#include "musatop/util/privilege.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace musatop::privilege {
namespace {

std::optional<uid_t> uid_of(const char* text) {
    if (!text || !*text) return std::nullopt;
    unsigned long value = 0;
    const std::string_view view(text);
    const auto [end, error] = std::from_chars(view.data(), view.data() + view.size(), value);
    if (error != std::errc{} || end != view.data() + view.size() || value == 0 || value > UINT_MAX) return std::nullopt;
    return static_cast<uid_t>(value);
}

std::string absolute(const std::string& path) {
    if (!path.empty() && path.front() == '/') return path;
    char cwd[PATH_MAX];
    return ::getcwd(cwd, sizeof cwd) ? std::string(cwd) + "/" + path : "/" + path;
}

// One entry of a chain: root's, and no one else can change it.
std::optional<std::string> entry_problem(const std::string& path, const struct stat& st) {
    if (st.st_uid != 0 && st.st_uid != ::geteuid()) return path + " belongs to UID " + std::to_string(st.st_uid);
    if (S_ISLNK(st.st_mode)) return std::nullopt;  // a link's own mode means nothing
    const bool others_write = (st.st_mode & (S_IWGRP | S_IWOTH)) != 0;
    if (others_write && !(S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX)))
        return path + " is writable by " + ((st.st_mode & S_IWOTH) ? "everyone" : "its group");
    return std::nullopt;
}

// Every component of an absolute path, from / down, looked at without following.
std::optional<std::string> chain_problem(const std::string& path) {
    std::string prefix;
    std::size_t at = 0;
    while (at != std::string::npos) {
        const auto next = path.find('/', at + 1);
        prefix = path.substr(0, next == std::string::npos ? path.size() : next);
        if (prefix.empty()) prefix = "/";
        struct stat st {};
        if (::lstat(prefix.c_str(), &st) != 0) return prefix + ": " + std::strerror(errno);
        if (auto problem = entry_problem(prefix, st)) return problem;
        at = next;
    }
    return std::nullopt;
}

}  // namespace

std::optional<Invoker> elevated_for(const std::function<const char*(const char*)>& getenv) {
    if (::geteuid() != 0) return std::nullopt;
    if (::getuid() != 0) return Invoker{::getuid(), "a setuid binary"};
    if (const auto uid = uid_of(getenv("SUDO_UID"))) return Invoker{*uid, "sudo"};
    if (const auto uid = uid_of(getenv("PKEXEC_UID"))) return Invoker{*uid, "pkexec"};
    struct stat st {};
    if (const char* home = getenv("HOME"); home && *home && ::stat(home, &st) == 0 && st.st_uid != 0)
        return Invoker{st.st_uid,
                       std::string("su -m (HOME ") + home + " belongs to UID " + std::to_string(st.st_uid) + ")"};
    return std::nullopt;
}

std::optional<std::string> untrusted(const std::string& path) {
    const std::string given = absolute(path);
    if (auto problem = chain_problem(given)) return problem;
    char resolved[PATH_MAX];
    if (!::realpath(given.c_str(), resolved)) return given + ": " + std::strerror(errno);
    return chain_problem(resolved);
}

std::optional<std::string> not_writable_by(const std::string& path, uid_t uid) {
    struct stat st {};
    std::string target = absolute(path);
    if (::lstat(target.c_str(), &st) != 0) {
        const auto slash = target.find_last_of('/');
        target = slash == 0 ? "/" : target.substr(0, slash);
        if (::stat(target.c_str(), &st) != 0) return target + ": " + std::strerror(errno);
    } else if (S_ISLNK(st.st_mode)) {
        return target + " is a symlink";
    }
    if (st.st_uid == uid || (st.st_mode & S_IWOTH)) return std::nullopt;
    return target + " belongs to UID " + std::to_string(st.st_uid) + " and UID " + std::to_string(uid) +
           " could not write it";
}

}  // namespace musatop::privilege
