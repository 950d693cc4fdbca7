// A response read as its bytes arrive (status, headers, a body framed by
// Content-Length, chunked encoding, or the connection's end), for every request
// musatop sends: nodes, Prometheus, a proxy's answer to CONNECT. Pure: no sockets.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace musatop::net {

class HttpResponseReader {
public:
    enum class Progress { reading, done, failed };

    // `spare_bytes`: capacity kept free after a body of known length, for a reader
    // that reads the text where it lies (the JSON reader's padding).
    explicit HttpResponseReader(std::size_t max_body_bytes, std::size_t spare_bytes = 0)
        : max_body_(max_body_bytes), spare_(spare_bytes) {}

    // Starts a new response; `body` lends its buffer (capacity kept) to the next body.
    // `head_only`: the answer has no body whatever it says (to HEAD or CONNECT).
    void reset(std::string body = {}, bool head_only = false);
    Progress feed(std::string_view bytes);
    // The connection ended: completes a body framed by the connection's end.
    Progress end_of_input();

    Progress state() const { return state_; }
    bool started() const { return started_; }  // any byte of the response arrived
    long status() const { return status_; }
    bool keep_alive() const { return keep_alive_; }
    bool too_large() const { return too_large_; }
    const std::string& error() const { return error_; }
    const std::string& etag() const { return etag_; }
    std::string& body() { return body_; }

private:
    enum class Part { status_line, headers, body_length, body_until_end, chunk_size, chunk_data, chunk_end, trailers };
    Progress fail(std::string why);
    Progress exceeded();
    bool line(std::string& out, std::string_view& bytes);
    Progress header(std::string_view text);
    Progress after_headers();
    bool append(std::string_view bytes);

    std::size_t max_body_;
    std::size_t spare_;
    bool head_only_ = false;
    Progress state_ = Progress::reading;
    Part part_ = Part::status_line;
    bool started_ = false;
    long status_ = 0;
    bool keep_alive_ = true;
    bool chunked_ = false;
    std::optional<std::size_t> length_;
    std::size_t remaining_ = 0;      // of the body or the current chunk
    std::size_t header_bytes_ = 0;   // status line, headers and trailers
    std::size_t framing_bytes_ = 0;  // chunk-size lines and chunk ends
    bool too_large_ = false;
    std::string pending_;  // a line not yet complete
    std::string body_;
    std::string error_;
    std::string etag_;
};

}  // namespace musatop::net
