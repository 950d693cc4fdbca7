// The driver's files under a time limit, as GMI has one. A procfs read runs in the
// driver, and a driver waiting on a hung card can block it for ever; a FIFO or a
// FUSE file in a fake tree does the same. So the reads run on one thread of their
// own: a round waits at most `limit` (or until cancelled), then carries on with
// the driver's readings unknown and the reason. While that read is still blocked,
// later rounds do not start another (no thread piles up); when it returns, the
// next round reads again. The thread is never joined: quitting never waits for it.
#pragma once

#include <chrono>
#include <memory>

#include "musatop/collection/driver/driver_reader.hpp"

namespace musatop::driver {

class BoundedDriverReader {
public:
    explicit BoundedDriverReader(std::string root);
    ~BoundedDriverReader();
    BoundedDriverReader(const BoundedDriverReader&) = delete;
    BoundedDriverReader& operator=(const BoundedDriverReader&) = delete;

    // The tree, or one whose `absent` says the files did not answer in time.
    DriverTree read(bool process_util, std::chrono::milliseconds limit, int cancel_fd);

    struct Shared;

private:
    std::shared_ptr<Shared> shared_;  // also held by the thread, which may outlive this
};

}  // namespace musatop::driver
