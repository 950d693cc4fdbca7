#include "musatop/serve/basic_auth.hpp"

#include <crypt.h>
#include <openssl/crypto.h>
#include <openssl/sha.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <thread>

namespace musatop::serve {
namespace {

std::array<unsigned char, 32> digest(const net::Credentials& c) {
    const std::string text = c.user + ":" + c.password;
    std::array<unsigned char, 32> out{};
    SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), out.data());
    return out;
}

std::string_view bytes_of(const std::array<unsigned char, 32>& digest) {
    return {reinterpret_cast<const char*>(digest.data()), digest.size()};
}

bool same(const std::array<unsigned char, 32>& a, const std::array<unsigned char, 32>& b) {
    return equal_in_constant_time(bytes_of(a), bytes_of(b));
}

}  // namespace

bool bcrypt_matches(const std::string& password, const std::string& hash) {
    auto data = std::make_unique<crypt_data>();  // large: keep it off the stack
    std::memset(data.get(), 0, sizeof(crypt_data));
    const char* computed = ::crypt_r(password.c_str(), hash.c_str(), data.get());
    if (!computed || computed[0] == '*') return false;  // libcrypt's failure tokens
    return equal_in_constant_time(computed, hash);
}

bool equal_in_constant_time(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

bool BasicAuth::known_failure(const Digest& pair) {
    std::lock_guard lock(mutex_);
    return std::any_of(failed_.begin(), failed_.end(), [&](const Digest& d) { return same(d, pair); });
}

// The bcrypt check, one at a time; a failure is remembered and keeps the verifier
// for `pause_after_failure`, which bounds the CPU a flood of guesses can take.
bool BasicAuth::verify(const std::string& password, const std::string& hash, const Digest& pair, bool known_user) {
    std::lock_guard one_at_a_time(verifying_);
    if (known_failure(pair)) return false;  // the same guess, checked while we queued
    if (verifier_(password, hash) && known_user) return true;
    {
        std::lock_guard lock(mutex_);
        failed_.push_back(pair);
        if (failed_.size() > costs_.remembered_failures) failed_.pop_front();
    }
    std::this_thread::sleep_for(costs_.pause_after_failure);
    return false;
}

bool BasicAuth::answers_at_once(std::string_view authorization_header) {
    if (users_.empty()) return true;
    const auto credentials = net::parse_basic_authorization(authorization_header);
    if (!credentials) return true;
    const auto hashed = digest(*credentials);
    {
        std::lock_guard lock(mutex_);
        const auto cached = verified_.find(credentials->user);
        if (cached != verified_.end() && same(cached->second, hashed)) return true;
    }
    return known_failure(hashed);
}

bool BasicAuth::allows(std::string_view authorization_header) {
    const auto credentials = net::parse_basic_authorization(authorization_header);
    if (!credentials) return false;
    if (users_.empty()) return false;
    const auto hashed = digest(*credentials);
    const auto user = users_.find(credentials->user);
    {
        std::lock_guard lock(mutex_);
        const auto cached = user == users_.end() ? verified_.end() : verified_.find(credentials->user);
        if (cached != verified_.end() && same(cached->second, hashed)) return true;
    }
    if (known_failure(hashed)) return false;
    // An unknown name is checked against some hash anyway, so it costs what a known one does.
    const std::string& hash = user == users_.end() ? users_.begin()->second : user->second;
    if (!verify(credentials->password, hash, hashed, user != users_.end())) return false;
    std::lock_guard lock(mutex_);
    verified_[credentials->user] = hashed;
    return true;
}

}  // namespace musatop::serve
