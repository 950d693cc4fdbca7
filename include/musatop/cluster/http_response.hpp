// The HTTP/1.1 of the direct fetcher for plain http:// nodes: one GET request, and
// a response read as its bytes arrive (status, headers, a body framed by
// Content-Length, chunked encoding, or the connection's end). Pure: no sockets.
// libcurl costs ~4 µs of user and kernel time per request more than this on
// 256 nodes a second (docs/PERFORMANCE.md); https:// nodes still go through it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace musatop::cluster {

struct NodeAddress;

// "GET PATH HTTP/1.1" with Host, User-Agent, Accept and, when given, Authorization.
std::string http_get_request(const NodeAddress& node, std::string_view path,
                             const std::optional<std::string>& authorization);

// "Basic " + base64(user:password).
std::string basic_authorization(std::string_view user, std::string_view password);

class HttpResponseReader {
public:
    enum class State { reading, done, failed };

    explicit HttpResponseReader(std::size_t max_body_bytes) : max_body_(max_body_bytes) {}

    // Starts a new response; `body` lends its buffer (capacity kept) to the next body.
    void reset(std::string body = {});
    State feed(std::string_view bytes);
    // The connection ended: completes a body framed by the connection's end.
    State end_of_input();

    State state() const { return state_; }
    bool started() const { return started_; }  // any byte of the response arrived
    long status() const { return status_; }
    bool keep_alive() const { return keep_alive_; }
    bool too_large() const { return too_large_; }
    const std::string& error() const { return error_; }
    std::string& body() { return body_; }

private:
    enum class Part { status_line, headers, body_length, body_until_end, chunk_size, chunk_data, chunk_end, trailers };
    State fail(std::string why);
    State exceeded();
    bool line(std::string& out, std::string_view& bytes);
    State header(std::string_view text);
    State after_headers();
    bool append(std::string_view bytes);

    std::size_t max_body_;
    State state_ = State::reading;
    Part part_ = Part::status_line;
    bool started_ = false;
    long status_ = 0;
    bool keep_alive_ = true;
    bool chunked_ = false;
    std::optional<std::size_t> length_;
    std::size_t remaining_ = 0;  // of the body or the current chunk
    std::size_t header_bytes_ = 0;
    bool too_large_ = false;
    std::string pending_;  // a line not yet complete
    std::string body_;
    std::string error_;
};

}  // namespace musatop::cluster
