// (internal to the net layer) A request's head to its answer's bytes, on a worker
// thread: the handler, a conditional GET's 304, gzip (the compressed form of the
// last few bodies kept, so fifty scrapers asking for gzip cost one compression a
// frame), the head.
#pragma once

#include <array>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "answer_pool.hpp"
#include "musatop/net/http_server.hpp"

namespace musatop::net {

class Responder {
public:
    explicit Responder(Handler handler) : handler_(std::move(handler)) {}
    Answer respond(const Job& job);

private:
    std::shared_ptr<const std::string> gzipped(const std::shared_ptr<const std::string>& body);

    Handler handler_;
    std::mutex mutex_;  // guards the cache
    std::array<std::pair<std::weak_ptr<const std::string>, std::shared_ptr<const std::string>>, 4> zipped_;
    std::size_t next_zipped_ = 0;
};

// A complete answer made without a handler (refusals), with Connection: close.
std::string refusal_bytes(int status, std::string_view body);

}  // namespace musatop::net
