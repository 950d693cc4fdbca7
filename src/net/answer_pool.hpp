// (internal to the net layer) The threads that run handlers: a fixed number per
// lane, started once. The loop hands a request's head in and gets the answer's
// bytes back through a queue and an eventfd; a worker never touches a socket, so a
// client that does not read costs no thread.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "musatop/net/http_server.hpp"
#include "musatop/util/unique_fd.hpp"

namespace musatop::net {

struct Job {
    std::uint64_t connection = 0;
    std::string head;   // the request head's text
    bool last = false;  // the connection's last request (its cap)
};

struct Answer {
    std::uint64_t connection = 0;
    std::string bytes;                        // the response head
    std::shared_ptr<const std::string> body;  // null for HEAD and 304
    bool keep_alive = false;
};

class AnswerPool {
public:
    using Work = std::function<Answer(const Job&)>;
    AnswerPool(Work work, int fast_workers, int slow_workers);
    ~AnswerPool();  // lets running handlers finish, drops queued jobs
    AnswerPool(const AnswerPool&) = delete;
    AnswerPool& operator=(const AnswerPool&) = delete;

    void submit(Lane lane, Job job);
    std::size_t queued(Lane lane) const;
    // Readable while answers wait; `take` empties it.
    int ready_fd() const { return ready_.get(); }
    std::vector<Answer> take();

private:
    void work_on(Lane lane);

    Work work_;
    UniqueFd ready_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Job> jobs_[2];
    std::vector<Answer> answers_;
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

}  // namespace musatop::net
