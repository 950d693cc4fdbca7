// When musatop runs with more privilege than the user who started it (sudo with a
// rule that grants musatop, `su -m`, a setuid copy), it must not become that
// user's way to root: it runs no program and reads no configuration or tree that
// the user controls, and writes only where the user could have written (systemd's
// CVE-2023-26604 was this class). These are the checks; cli/ applies them.
#pragma once

#include <sys/types.h>

#include <functional>
#include <optional>
#include <string>

namespace musatop::privilege {

struct Invoker {
    uid_t uid = 0;
    std::string how;  // "sudo", "a setuid binary", "su -m (HOME belongs to UID 1000)"
};

// The less privileged user this root process acts for, if any: a real UID that
// differs from the effective one, SUDO_UID / PKEXEC_UID, or a HOME owned by
// another user. None when not root or acting for root.
std::optional<Invoker> elevated_for(const std::function<const char*(const char*)>& getenv);

// Why root should not trust `path` (run it, read it as configuration, use it as a
// tree), as ssh checks its files: the file and every folder up to / must be owned
// by root and writable by no one else (a sticky folder, like /tmp, is fine for a
// root-owned entry). None when trusted. Symlinks are followed, each target checked.
std::optional<std::string> untrusted(const std::string& path);

// Why the user `uid` could not have written `path` (an existing file, else the
// folder a new one goes in): none when they could (they own it, or it is writable
// by everyone). Group rights are not counted: they would need the user's groups
// through NSS, which a static binary does not load.
std::optional<std::string> not_writable_by(const std::string& path, uid_t uid);

}  // namespace musatop::privilege
