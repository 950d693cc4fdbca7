#include "musatop/serve/request_head.hpp"

#include "musatop/util/text.hpp"

namespace musatop::serve {

std::size_t find_head_end(std::string_view buffer) {
    const auto crlf = buffer.find("\r\n\r\n");
    const auto lf = buffer.find("\n\n");
    if (crlf == std::string_view::npos && lf == std::string_view::npos) return std::string_view::npos;
    if (lf == std::string_view::npos || (crlf != std::string_view::npos && crlf < lf)) return crlf + 4;
    return lf + 2;
}

bool head_has_body(std::string_view head) {
    for (auto line : text::split_lines(head)) {
        if (text::starts_with_icase(line, "transfer-encoding:")) return true;
        if (text::starts_with_icase(line, "content-length:")) {
            const auto value = text::trim(line.substr(15));
            if (value.empty() || value.find_first_not_of('0') != std::string_view::npos) return true;
        }
    }
    return false;
}

}  // namespace musatop::serve
