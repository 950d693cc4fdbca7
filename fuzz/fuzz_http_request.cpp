// Untrusted bytes from the network: a request head and its Authorization header.
#include <cstddef>
#include <cstdint>
#include <string>

#include "musatop/serve/basic_auth.hpp"
#include "musatop/serve/request_head.hpp"
#include "musatop/serve/listen_address.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const auto end = musatop::serve::find_head_end(text);
    (void)musatop::serve::head_has_body(end == std::string::npos ? text : text.substr(0, end));
    if (const auto credentials = musatop::serve::parse_basic_authorization(text)) {
        if (credentials->user.size() + credentials->password.size() + 1 > text.size()) __builtin_trap();
    }
    (void)musatop::serve::parse_listen_address(text);
    return 0;
}
