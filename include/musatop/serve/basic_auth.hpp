// HTTP basic authentication against bcrypt hashes (libcrypt). A bcrypt check costs
// tens of milliseconds by design, and Prometheus scrapes every few seconds, so a
// verified (user, password) pair is remembered as a SHA-256 of the pair and later
// compared in constant time, as exporter-toolkit caches its checks too.
#pragma once

#include <array>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "musatop/net/base64.hpp"

namespace musatop::serve {

// Constant-time comparison of two byte strings of the same length.
bool equal_in_constant_time(std::string_view a, std::string_view b);

class BasicAuth {
public:
    explicit BasicAuth(std::map<std::string, std::string> users) : users_(std::move(users)) {}
    bool enabled() const { return !users_.empty(); }
    // True when the header names a configured user with the right password.
    bool allows(std::string_view authorization_header);

private:
    std::map<std::string, std::string> users_;  // name -> bcrypt hash
    std::mutex mutex_;
    std::map<std::string, std::array<unsigned char, 32>> verified_;  // name -> SHA-256(name:password)
};

}  // namespace musatop::serve
