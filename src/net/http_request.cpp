#include "musatop/net/http_request.hpp"

#include "musatop/util/text.hpp"

#include <algorithm>

namespace musatop::net {
namespace {

bool is_token_char(char c) {
    const auto u = static_cast<unsigned char>(c);
    return u > 0x20 && u < 0x7f && std::string_view("()<>@,;:\\\"/[]?={}").find(c) == std::string_view::npos;
}

bool is_token(std::string_view text) {
    if (text.empty()) return false;
    for (char c : text)
        if (!is_token_char(c)) return false;
    return true;
}

// A comma-separated list holds `token` (any case), without ";q=0".
bool lists_token(std::string_view list, std::string_view token) {
    for (auto item : text::split(list, ',')) {
        item = text::trim(item);
        const auto semicolon = item.find(';');
        if (!text::iequals(text::trim(item.substr(0, semicolon)), token)) continue;
        if (semicolon == std::string_view::npos) return true;
        std::string params = text::fold_case(item.substr(semicolon + 1));
        std::erase(params, ' ');
        // "q=0", "q=0.0", "q=0.000": the client refuses it.
        const bool refused = params.rfind("q=0", 0) == 0 && params.find_first_not_of("0.", 2) == std::string::npos;
        return !refused;
    }
    return false;
}

}  // namespace

std::string write_request(const Request& request, const Endpoint& to, bool absolute_form) {
    std::string out = request.method + " ";
    if (absolute_form) out += (to.tls ? "https://" : "http://") + to.authority();
    out += request.target + " HTTP/1.1\r\nHost: " + to.authority() + "\r\n";
    for (const auto& [name, value] : request.headers) out += name + ": " + value + "\r\n";
    if (!request.body.empty() || request.method == "POST")
        out += "Content-Length: " + std::to_string(request.body.size()) + "\r\n";
    return out + "\r\n" + request.body;
}

std::string write_connect(const Endpoint& to) {
    return "CONNECT " + to.authority() + " HTTP/1.1\r\nHost: " + to.authority() + "\r\n\r\n";
}

std::string form_encode(std::string_view value) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    out.reserve(value.size() * 3 / 2);
    for (char c : value) {
        const auto u = static_cast<unsigned char>(c);
        if ((u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') ||
            std::string_view("-_.~").find(c) != std::string_view::npos) {
            out += c;
        } else {
            out += '%';
            out += kHex[u >> 4];
            out += kHex[u & 15];
        }
    }
    return out;
}

// A line ends in LF, with or without a CR before it (RFC 9112 §2.2), so the blank
// line is a LF followed by LF or by CR LF: "\r\n\r\n", "\n\n", "\r\n\n", "\n\r\n".
std::size_t find_head_end(std::string_view buffer) {
    for (auto lf = buffer.find('\n'); lf != std::string_view::npos; lf = buffer.find('\n', lf + 1)) {
        if (lf + 1 < buffer.size() && buffer[lf + 1] == '\n') return lf + 2;
        if (lf + 2 < buffer.size() && buffer[lf + 1] == '\r' && buffer[lf + 2] == '\n') return lf + 3;
    }
    return std::string_view::npos;
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

std::optional<std::string_view> RequestHead::header(std::string_view name) const {
    for (const auto& [key, value] : headers)
        if (text::iequals(key, name)) return value;
    return std::nullopt;
}

bool RequestHead::keep_alive() const {
    const auto connection = header("connection");
    if (minor_version == 0) return connection && lists_token(*connection, "keep-alive");
    return !connection || !lists_token(*connection, "close");
}

bool RequestHead::accepts_gzip() const {
    const auto encodings = header("accept-encoding");
    return encodings && lists_token(*encodings, "gzip");
}

std::optional<RequestHead> parse_request_head(std::string_view head) {
    // A NUL, or a CR that does not end a line, is where request smuggling starts
    // (RFC 9112 §2.2 lets a server refuse both): no proxy before us reads it as we do.
    if (head.find('\0') != std::string_view::npos) return std::nullopt;
    for (auto cr = head.find('\r'); cr != std::string_view::npos; cr = head.find('\r', cr + 1))
        if (cr + 1 == head.size() || head[cr + 1] != '\n') return std::nullopt;
    auto lines = text::split_lines(head);
    if (lines.empty()) return std::nullopt;
    RequestHead out;
    const auto request_line = lines.front();
    const auto first = request_line.find(' ');
    const auto second = request_line.rfind(' ');
    if (first == std::string_view::npos || second == first) return std::nullopt;
    out.method = request_line.substr(0, first);
    out.target = request_line.substr(first + 1, second - first - 1);
    const auto version = request_line.substr(second + 1);
    if (!is_token(out.method) || out.target.empty() || out.target.find(' ') != std::string_view::npos)
        return std::nullopt;
    if (version == "HTTP/1.1") out.minor_version = 1;
    else if (version == "HTTP/1.0") out.minor_version = 0;
    else return std::nullopt;
    out.path = out.target.substr(0, out.target.find('?'));
    for (std::size_t i = 1; i < lines.size(); ++i) {
        const auto line = lines[i];
        if (line.empty()) break;
        const auto colon = line.find(':');
        // No space before the colon (RFC 9112 §5.1), no folded lines.
        if (colon == std::string_view::npos || !is_token(line.substr(0, colon))) return std::nullopt;
        out.headers.emplace_back(line.substr(0, colon), text::trim(line.substr(colon + 1)));
    }
    // One Host in HTTP/1.1 and at most one in 1.0 (RFC 9112 §3.2: else 400).
    const auto hosts = std::count_if(out.headers.begin(), out.headers.end(),
                                     [](const auto& h) { return text::iequals(h.first, "host"); });
    if (hosts > 1 || (hosts == 0 && out.minor_version == 1)) return std::nullopt;
    return out;
}

}  // namespace musatop::net
