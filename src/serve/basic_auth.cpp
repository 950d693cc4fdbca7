#include "musatop/serve/basic_auth.hpp"

#include <crypt.h>
#include <openssl/crypto.h>
#include <openssl/sha.h>

#include <cstring>
#include <memory>

namespace musatop::serve {
namespace {

std::array<unsigned char, 32> digest(const net::Credentials& c) {
    const std::string text = c.user + ":" + c.password;
    std::array<unsigned char, 32> out{};
    SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), out.data());
    return out;
}

bool bcrypt_matches(const std::string& password, const std::string& hash) {
    auto data = std::make_unique<crypt_data>();  // large: keep it off the stack
    std::memset(data.get(), 0, sizeof(crypt_data));
    const char* computed = ::crypt_r(password.c_str(), hash.c_str(), data.get());
    if (!computed || computed[0] == '*') return false;  // libcrypt's failure tokens
    return equal_in_constant_time(computed, hash);
}

}  // namespace

bool equal_in_constant_time(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

bool BasicAuth::allows(std::string_view authorization_header) {
    const auto credentials = net::parse_basic_authorization(authorization_header);
    if (!credentials) return false;
    if (users_.empty()) return false;
    const auto user = users_.find(credentials->user);
    if (user == users_.end()) {
        // Spend a bcrypt check anyway, so an unknown name costs what a known one does.
        bcrypt_matches(credentials->password, users_.begin()->second);
        return false;
    }
    const auto hashed = digest(*credentials);
    {
        std::lock_guard lock(mutex_);
        const auto cached = verified_.find(credentials->user);
        if (cached != verified_.end() && CRYPTO_memcmp(cached->second.data(), hashed.data(), hashed.size()) == 0)
            return true;
    }
    if (!bcrypt_matches(credentials->password, user->second)) return false;
    std::lock_guard lock(mutex_);
    verified_[credentials->user] = hashed;
    return true;
}

}  // namespace musatop::serve
