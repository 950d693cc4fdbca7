#include "musatop/net/base64.hpp"

#include <algorithm>

#include "musatop/util/text.hpp"

namespace musatop::net {
namespace {

constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int digit_value(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

bool has_control(std::string_view text) {
    return std::any_of(text.begin(), text.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u < 0x20 || u == 0x7f;
    });
}

}  // namespace

std::string encode_base64(std::string_view bytes) {
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    for (std::size_t at = 0; at < bytes.size(); at += 3) {
        const std::size_t left = bytes.size() - at;
        const unsigned bits = static_cast<unsigned char>(bytes[at]) << 16 |
                              (left > 1 ? static_cast<unsigned char>(bytes[at + 1]) << 8 : 0u) |
                              (left > 2 ? static_cast<unsigned char>(bytes[at + 2]) : 0u);
        out += kDigits[bits >> 18 & 63];
        out += kDigits[bits >> 12 & 63];
        out += left > 1 ? kDigits[bits >> 6 & 63] : '=';
        out += left > 2 ? kDigits[bits & 63] : '=';
    }
    return out;
}

std::optional<std::string> decode_base64(std::string_view text) {
    if (text.size() % 4 != 0) return std::nullopt;
    std::string out;
    out.reserve(text.size() / 4 * 3);
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
            v[k] = digit_value(c);
            if (v[k] < 0) return std::nullopt;
        }
        const unsigned triple = static_cast<unsigned>((v[0] << 18) | (v[1] << 12) | (v[2] << 6) | v[3]);
        out.push_back(static_cast<char>((triple >> 16) & 0xFF));
        if (padding < 2) out.push_back(static_cast<char>((triple >> 8) & 0xFF));
        if (padding < 1) out.push_back(static_cast<char>(triple & 0xFF));
    }
    return out;
}

std::string basic_authorization(std::string_view user, std::string_view password) {
    return "Basic " + encode_base64(std::string(user) + ":" + std::string(password));
}

std::optional<Credentials> parse_basic_authorization(std::string_view header) {
    header = text::trim(header);
    if (header.size() < 6 || !text::starts_with_icase(header, "basic ")) return std::nullopt;
    const auto decoded = decode_base64(text::trim(header.substr(6)));
    if (!decoded) return std::nullopt;
    const auto colon = decoded->find(':');
    if (colon == std::string::npos) return std::nullopt;
    Credentials c{decoded->substr(0, colon), decoded->substr(colon + 1)};
    if (has_control(c.user) || has_control(c.password)) return std::nullopt;
    return c;
}

}  // namespace musatop::net
