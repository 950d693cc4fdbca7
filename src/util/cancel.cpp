#include "musatop/util/cancel.hpp"

#include <poll.h>
#include <sys/eventfd.h>

#include <cstdint>
#include <stdexcept>

namespace musatop {

bool CancelToken::requested() const {
    if (fd_ < 0) return false;
    pollfd fd{fd_, POLLIN, 0};
    return ::poll(&fd, 1, 0) > 0;
}

Canceller::Canceller() : fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
    if (!fd_.valid()) throw std::runtime_error("cannot create an eventfd for cancellation");
}

void Canceller::cancel() const {
    const std::uint64_t one = 1;
    // One write cannot fill an eventfd counter; nothing to do on failure.
    [[maybe_unused]] const ssize_t written = ::write(fd_.get(), &one, sizeof one);
}

}  // namespace musatop
