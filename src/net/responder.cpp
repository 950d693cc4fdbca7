#include "responder.hpp"

#include "musatop/net/api.hpp"
#include "musatop/net/gzip.hpp"
#include "musatop/util/text.hpp"

namespace musatop::net {
namespace {

bool compressible(std::string_view content_type) {
    return content_type.rfind("text/", 0) == 0 || content_type.rfind("application/json", 0) == 0;
}

// If-None-Match lists `etag` (or is "*").
bool matches(std::string_view if_none_match, std::string_view etag) {
    for (auto item : text::split(if_none_match, ',')) {
        item = text::trim(item);
        if (item.rfind("W/", 0) == 0) item.remove_prefix(2);  // a weak comparison, as RFC 9110 §13.1.2 asks
        if (item == "*" || item == etag) return true;
    }
    return false;
}

}  // namespace

Response text_response(int status, std::string body) {
    Response r;
    r.status = status;
    r.content_type = kTextType;
    r.body = std::make_shared<const std::string>(std::move(body));
    return r;
}

Response Router::route(const RequestHead& request) const {
    if (request.method != "GET" && request.method != "HEAD") {
        Response r = text_response(405, "method not allowed: musatop serve is read-only\n");
        r.headers.emplace_back("Allow", "GET, HEAD");
        return r;
    }
    const auto found = routes_.find(request.path);
    if (found == routes_.end()) return text_response(404, "not found\n");
    return found->second(request);
}

std::string write_response_head(const Response& response, std::size_t body_bytes, bool gzipped, bool keep_alive) {
    std::string head =
        "HTTP/1.1 " + std::to_string(response.status) + " " + std::string(reason_phrase(response.status)) + "\r\n";
    if (!response.content_type.empty()) head.append("Content-Type: ").append(response.content_type).append("\r\n");
    if (response.status != 304) head += "Content-Length: " + std::to_string(body_bytes) + "\r\n";
    if (gzipped) head += "Content-Encoding: gzip\r\n";
    if (compressible(response.content_type)) head += "Vary: Accept-Encoding\r\n";
    if (!response.etag.empty()) head += "ETag: " + response.etag + "\r\n";
    for (const auto& [name, value] : response.headers) head += name + ": " + value + "\r\n";
    if (!keep_alive) head += "Connection: close\r\n";
    return head + "\r\n";
}

std::string refusal_bytes(int status, std::string_view body) {
    Response response;
    response.status = status;
    response.content_type = kTextType;
    return write_response_head(response, body.size(), false, false) + std::string(body);
}

std::shared_ptr<const std::string> Responder::gzipped(const std::shared_ptr<const std::string>& body) {
    {
        std::lock_guard lock(mutex_);
        for (const auto& [key, value] : zipped_)
            if (!key.expired() && key.lock() == body) return value;
    }
    auto compressed = gzip_compress(*body);
    if (!compressed) return nullptr;
    auto value = std::make_shared<const std::string>(std::move(*compressed));
    std::lock_guard lock(mutex_);
    zipped_[next_zipped_++ % zipped_.size()] = {body, value};
    return value;
}

Answer Responder::respond(const Job& job) {
    Answer answer{job.connection, {}, nullptr, false};
    const auto request = parse_request_head(job.head);
    if (!request) {  // the loop checked it: only a head the two disagree on lands here
        answer.bytes = refusal_bytes(400, "malformed request\n");
        return answer;
    }
    Response response = handler_(*request);
    answer.keep_alive = !job.last && request->keep_alive();
    std::shared_ptr<const std::string> body = response.body;
    bool gzipped_body = false;
    if (!response.etag.empty() && response.status == 200) {
        const auto condition = request->header("if-none-match");
        if (condition && matches(*condition, response.etag)) {
            response.status = 304;
            body.reset();
        }
    }
    if (body && request->accepts_gzip() && compressible(response.content_type)) {
        if (auto zipped_body = gzipped(body)) {
            body = std::move(zipped_body);
            gzipped_body = true;
        }
    }
    answer.bytes = write_response_head(response, body ? body->size() : 0, gzipped_body, answer.keep_alive);
    if (request->method != "HEAD") answer.body = std::move(body);
    return answer;
}

std::string_view reason_phrase(int status) {
    switch (status) {
        case 200: return "OK";
        case 304: return "Not Modified";
        case 400: return "Bad Request";
        case 401: return "Unauthorized";
        case 404: return "Not Found";
        case 405: return "Method Not Allowed";
        case 413: return "Payload Too Large";
        case 431: return "Request Header Fields Too Large";
        case 500: return "Internal Server Error";
        case 503: return "Service Unavailable";
        default: return "Unknown";
    }
}

}  // namespace musatop::net
