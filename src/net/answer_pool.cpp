#include "answer_pool.hpp"

#include <openssl/crypto.h>
#include <sys/eventfd.h>

#include <cstdint>

namespace musatop::net {

AnswerPool::AnswerPool(Work work, int fast_workers, int slow_workers)
    : work_(std::move(work)), ready_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
    for (int i = 0; i < fast_workers; ++i) threads_.emplace_back([this] { work_on(Lane::fast); });
    for (int i = 0; i < slow_workers; ++i) threads_.emplace_back([this] { work_on(Lane::slow); });
}

AnswerPool::~AnswerPool() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (auto& thread : threads_) thread.join();
}

void AnswerPool::submit(Lane lane, Job job) {
    {
        std::lock_guard lock(mutex_);
        jobs_[static_cast<int>(lane)].push_back(std::move(job));
    }
    wake_.notify_all();
}

std::size_t AnswerPool::queued(Lane lane) const {
    std::lock_guard lock(mutex_);
    return jobs_[static_cast<int>(lane)].size();
}

std::vector<Answer> AnswerPool::take() {
    std::uint64_t count = 0;
    [[maybe_unused]] const auto n = ::read(ready_.get(), &count, sizeof count);
    std::lock_guard lock(mutex_);
    return std::exchange(answers_, {});
}

void AnswerPool::work_on(Lane lane) {
    auto& queue = jobs_[static_cast<int>(lane)];
    for (;;) {
        Job job;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return stopping_ || !queue.empty(); });
            if (stopping_) break;
            job = std::move(queue.front());
            queue.pop_front();
        }
        Answer answer = work_(job);
        {
            std::lock_guard lock(mutex_);
            answers_.push_back(std::move(answer));
        }
        const std::uint64_t one = 1;
        [[maybe_unused]] const auto n = ::write(ready_.get(), &one, sizeof one);
    }
    // Whatever OpenSSL kept for this thread (its error queue) is freed before the
    // join returns, not by exit handlers racing the process's end.
    OPENSSL_thread_stop();
}

}  // namespace musatop::net
