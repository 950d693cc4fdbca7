#include "musatop/net/http_response.hpp"

#include <algorithm>
#include <charconv>

#include "musatop/util/text.hpp"

namespace musatop::net {
namespace {

constexpr std::size_t kMaxHeaderBytes = 64 << 10;  // a snapshot's headers are ~100 bytes
constexpr std::size_t kMaxLineBytes = 8 << 10;

// Chunk framing is what a 1-byte-chunked body adds (about 5 bytes a byte), never
// counted as headers; a chunk line full of extensions is cut.
constexpr std::size_t kMaxChunkLineBytes = 1024;
constexpr std::size_t kFramingPerBodyByte = 16;

// RFC 9110 §8.8.3: [W/]"..." of visible characters. Anything else (a bare CR, a
// space) is no validator and is never sent back to the node.
bool valid_etag(std::string_view tag) {
    if (tag.rfind("W/", 0) == 0) tag.remove_prefix(2);
    if (tag.size() < 2 || tag.front() != '"' || tag.back() != '"') return false;
    return std::all_of(tag.begin() + 1, tag.end() - 1, [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u == 0x21 || (u >= 0x23 && u != 0x7f);
    });
}

bool named(std::string_view header, std::string_view name) {
    return header.size() > name.size() && header[name.size()] == ':' &&
           text::fold_case(header.substr(0, name.size())) == name;
}

std::string_view value_of(std::string_view header) { return text::trim(header.substr(header.find(':') + 1)); }

// False once `start` cannot be the beginning of "HTTP/1.x".
bool http_start(std::string_view start) {
    constexpr std::string_view kVersion = "HTTP/1.";
    const std::size_t n = std::min(start.size(), kVersion.size());
    return start.substr(0, n) == kVersion.substr(0, n);
}

}  // namespace

void HttpResponseReader::reset(std::string body, bool head_only) {
    *this = HttpResponseReader(max_body_, spare_);
    head_only_ = head_only;
    body_ = std::move(body);
    body_.clear();
}

HttpResponseReader::Progress HttpResponseReader::fail(std::string why) {
    error_ = std::move(why);
    keep_alive_ = false;
    return state_ = Progress::failed;
}

// Takes bytes up to the end of a line into `out` (without CR LF); false when the
// line is not complete yet (the bytes wait in pending_).
bool HttpResponseReader::line(std::string& out, std::string_view& bytes) {
    const auto end = bytes.find('\n');
    const std::string_view piece = bytes.substr(0, end);
    pending_.append(piece);
    bytes.remove_prefix(end == std::string_view::npos ? bytes.size() : end + 1);
    if (end == std::string_view::npos) return false;
    if (!pending_.empty() && pending_.back() == '\r') pending_.pop_back();
    out = std::move(pending_);
    pending_.clear();
    return true;
}

HttpResponseReader::Progress HttpResponseReader::exceeded() {
    too_large_ = true;
    return fail("the answer exceeded " + std::to_string(max_body_ >> 20) + " MiB");
}

bool HttpResponseReader::append(std::string_view bytes) {
    if (body_.size() + bytes.size() > max_body_) return exceeded(), false;
    body_.append(bytes);
    return true;
}

HttpResponseReader::Progress HttpResponseReader::header(std::string_view text) {
    const auto colon = text.find(':');
    // "Content-Length : 5" is no header (RFC 9112 §5.1): reading past it would
    // frame the body wrongly.
    if (colon == 0 || colon == std::string_view::npos || text::is_space(text[colon - 1]) || text::is_space(text[0]))
        return fail("the answer has a malformed header line");
    if (named(text, "etag") && valid_etag(value_of(text))) etag_ = std::string(value_of(text));
    if (named(text, "content-length")) {
        const std::string_view digits = value_of(text);
        std::size_t length = 0;
        const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), length);
        if (error != std::errc{} || end != digits.data() + digits.size() || (length_ && *length_ != length))
            return fail("the answer's Content-Length is not one number");
        length_ = length;
    } else if (named(text, "transfer-encoding")) {
        if (text::fold_case(value_of(text)) != "chunked") return fail("the answer's transfer encoding is not chunked");
        chunked_ = true;
    } else if (named(text, "connection")) {
        const std::string value = text::fold_case(value_of(text));
        if (value == "close") keep_alive_ = false;
        if (value == "keep-alive") keep_alive_ = true;
    }
    return state_;
}

HttpResponseReader::Progress HttpResponseReader::after_headers() {
    if (status_ >= 100 && status_ < 200) {  // 100 Continue and the like: the answer follows
        part_ = Part::status_line;
        length_.reset();
        chunked_ = false;
        return state_;
    }
    if (head_only_ || status_ == 204 || status_ == 304 || (!chunked_ && length_ == 0u)) return state_ = Progress::done;
    if (chunked_) {
        part_ = Part::chunk_size;
    } else if (length_) {
        if (*length_ > max_body_) return exceeded();
        body_.reserve(*length_ + spare_);  // one allocation, or none with the buffer kept
        remaining_ = *length_;
        part_ = Part::body_length;
    } else {
        keep_alive_ = false;  // the body ends with the connection
        part_ = Part::body_until_end;
    }
    return state_;
}

HttpResponseReader::Progress HttpResponseReader::feed(std::string_view bytes) {
    started_ = started_ || !bytes.empty();
    std::string text;
    while (state_ == Progress::reading && !bytes.empty()) {
        switch (part_) {
            case Part::status_line:
            case Part::headers:
            case Part::trailers:
            case Part::chunk_size:
            case Part::chunk_end: {
                const std::size_t before = bytes.size();
                const bool complete = line(text, bytes);
                const bool framing = part_ == Part::chunk_size || part_ == Part::chunk_end;
                (framing ? framing_bytes_ : header_bytes_) += before - bytes.size();
                if (framing && (pending_.size() > kMaxChunkLineBytes ||
                                framing_bytes_ > kMaxHeaderBytes + kFramingPerBodyByte * body_.size()))
                    return fail("the answer's chunks are mostly framing");
                // An answer that does not open with a status line is HTTP/0.9 or another
                // protocol: said as soon as its first bytes show it, not after 64 KiB.
                if (part_ == Part::status_line && !http_start(complete ? text : pending_)) {
                    // A TLS record (an alert or a handshake) where HTTP was asked for.
                    const std::string& seen = complete ? text : pending_;
                    if (!seen.empty() && (seen[0] == '\x15' || seen[0] == '\x16'))
                        return fail("it answered in TLS, not plain HTTP: name it with https://");
                    return fail("not an HTTP answer: no status line (an HTTP/0.9 server, or not HTTP at all)");
                }
                if (header_bytes_ > kMaxHeaderBytes || pending_.size() > kMaxLineBytes)
                    return fail("the answer's headers exceed 64 KiB");
                if (!complete) break;
                if (part_ == Part::status_line) {
                    int code = 0;
                    if (text.size() < 12 || text.rfind("HTTP/1.", 0) != 0 || text[8] != ' ' ||
                        std::from_chars(text.data() + 9, text.data() + 12, code).ptr != text.data() + 12 || code < 100)
                        return fail("not an HTTP answer");
                    status_ = code;
                    keep_alive_ = text[7] == '1';  // HTTP/1.0 closes unless it says otherwise
                    part_ = Part::headers;
                } else if (part_ == Part::headers) {
                    if (text.empty()) after_headers();
                    else header(text);
                } else if (part_ == Part::chunk_size) {
                    std::size_t size = 0;
                    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), size, 16);
                    if (error != std::errc{} || (end != text.data() + text.size() && *end != ';' && *end != ' '))
                        return fail("the answer's chunk size is not a number");
                    remaining_ = size;
                    part_ = size == 0 ? Part::trailers : Part::chunk_data;
                } else if (part_ == Part::chunk_end) {
                    if (!text.empty()) return fail("a chunk of the answer does not end where it says");
                    part_ = Part::chunk_size;
                } else if (text.empty()) {  // the end of the trailers
                    state_ = Progress::done;
                }
                break;
            }
            case Part::body_length:
            case Part::chunk_data: {
                const std::string_view piece = bytes.substr(0, remaining_);
                if (!append(piece)) return state_;
                bytes.remove_prefix(piece.size());
                remaining_ -= piece.size();
                if (remaining_ == 0) {
                    if (part_ == Part::chunk_data) part_ = Part::chunk_end;
                    else state_ = Progress::done;
                }
                break;
            }
            case Part::body_until_end:
                if (!append(bytes)) return state_;
                bytes = {};
                break;
        }
    }
    if (state_ == Progress::done && !bytes.empty()) keep_alive_ = false;  // more than one answer: do not reuse
    return state_;
}

HttpResponseReader::Progress HttpResponseReader::end_of_input() {
    if (state_ != Progress::reading) return state_;
    keep_alive_ = false;
    if (part_ == Part::body_until_end) return state_ = Progress::done;
    return fail(started_ ? "the node closed the connection in the middle of its answer"
                         : "the node closed the connection without answering");
}

}  // namespace musatop::net
