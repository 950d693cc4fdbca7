// Base64 (RFC 4648) and HTTP Basic credentials (RFC 7617), for both ends of the
// agent's protocol: the cluster view sends them, `musatop serve` checks them. Pure.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace musatop::net {

std::string encode_base64(std::string_view bytes);
// Padding required; none on any invalid input.
std::optional<std::string> decode_base64(std::string_view text);

struct Credentials {
    std::string user;
    std::string password;
};

// "Basic " + base64(user:password).
std::string basic_authorization(std::string_view user, std::string_view password);
// "Basic <base64(user:password)>" (the scheme in any case) -> credentials; none when
// malformed, or when the user or password holds a control character (a NUL would
// end the password early for crypt()).
std::optional<Credentials> parse_basic_authorization(std::string_view header);

}  // namespace musatop::net
