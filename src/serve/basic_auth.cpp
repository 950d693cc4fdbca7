#include "musatop/serve/basic_auth.hpp"

#include <crypt.h>
#include <openssl/crypto.h>
#include <openssl/sha.h>

#include <cstring>
#include <memory>

namespace musatop::serve {
namespace {

int base64_value(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

std::array<unsigned char, 32> digest(const Credentials& c) {
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

std::optional<std::string> decode_base64(std::string_view text) {
    if (text.size() % 4 != 0) return std::nullopt;
    std::string out;
    for (std::size_t i = 0; i < text.size(); i += 4) {
        int v[4];
        int padding = 0;
        for (int k = 0; k < 4; ++k) {
            const char c = text[i + static_cast<std::size_t>(k)];
            if (c == '=' && i + 4 == text.size() && k >= 2) {
                v[k] = 0;
                ++padding;
                continue;
            }
            if (padding > 0) return std::nullopt;  // data after padding
            v[k] = base64_value(c);
            if (v[k] < 0) return std::nullopt;
        }
        const unsigned triple = static_cast<unsigned>((v[0] << 18) | (v[1] << 12) | (v[2] << 6) | v[3]);
        out.push_back(static_cast<char>((triple >> 16) & 0xFF));
        if (padding < 2) out.push_back(static_cast<char>((triple >> 8) & 0xFF));
        if (padding < 1) out.push_back(static_cast<char>(triple & 0xFF));
    }
    return out;
}

std::optional<Credentials> parse_basic_authorization(std::string_view header) {
    constexpr std::string_view scheme = "Basic ";
    if (header.size() <= scheme.size() || header.substr(0, scheme.size()) != scheme) return std::nullopt;
    const auto decoded = decode_base64(header.substr(scheme.size()));
    if (!decoded) return std::nullopt;
    const auto colon = decoded->find(':');
    if (colon == std::string::npos) return std::nullopt;
    return Credentials{decoded->substr(0, colon), decoded->substr(colon + 1)};
}

bool equal_in_constant_time(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

bool BasicAuth::allows(std::string_view authorization_header) {
    const auto credentials = parse_basic_authorization(authorization_header);
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
