// HTTP basic authentication against bcrypt hashes (libcrypt). A bcrypt check costs
// tens of milliseconds by design, and Prometheus scrapes every few seconds, so a
// verified (user, password) pair is remembered as a SHA-256 of the pair and later
// compared in constant time, as exporter-toolkit caches its checks too.
//
// Failed attempts are what an attacker controls, so their cost is bounded: the
// last failed pairs are remembered the same way (a repeated wrong password costs a
// hash), only one bcrypt check runs at a time, and a failed one holds the verifier
// a little longer. A flood of guesses then takes at most part of one core and
// queues behind itself, while the sampler and clients already verified (cache
// hits, no bcrypt) go on as before.
#pragma once

#include <array>
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "musatop/net/base64.hpp"

namespace musatop::serve {

// Constant-time comparison of two byte strings of the same length.
bool equal_in_constant_time(std::string_view a, std::string_view b);

// True when `password` hashes to `hash` (bcrypt through crypt_r).
bool bcrypt_matches(const std::string& password, const std::string& hash);

class BasicAuth {
public:
    using Verifier = std::function<bool(const std::string& password, const std::string& hash)>;
    struct Costs {
        std::chrono::milliseconds pause_after_failure{50};
        std::size_t remembered_failures = 256;
    };

    explicit BasicAuth(std::map<std::string, std::string> users)
        : BasicAuth(std::move(users), bcrypt_matches, Costs{}) {}
    BasicAuth(std::map<std::string, std::string> users, Verifier verifier, Costs costs)
        : users_(std::move(users)), verifier_(std::move(verifier)), costs_(costs) {}
    bool enabled() const { return !users_.empty(); }
    // True when the header names a configured user with the right password.
    bool allows(std::string_view authorization_header);
    // True when `allows` answers without a bcrypt check: no auth, no credentials, a
    // pair verified or refused before. Cheap (a SHA-256): the server's loop asks it.
    bool answers_at_once(std::string_view authorization_header);

private:
    using Digest = std::array<unsigned char, 32>;
    bool known_failure(const Digest& pair);
    bool verify(const std::string& password, const std::string& hash, const Digest& pair, bool known_user);

    std::map<std::string, std::string> users_;  // name -> bcrypt hash
    Verifier verifier_;
    Costs costs_;
    std::mutex mutex_;                        // guards the two caches
    std::map<std::string, Digest> verified_;  // name -> SHA-256(name:password)
    std::deque<Digest> failed_;               // SHA-256(name:password) of recent failures, oldest first
    std::mutex verifying_;                    // one bcrypt check at a time
};

}  // namespace musatop::serve
