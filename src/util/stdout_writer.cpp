#include "musatop/util/stdout_writer.hpp"

#include <limits.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>

#include <cerrno>
#include <cstring>
#include <string>

namespace musatop {

Written write_stdout(std::string_view text, int stop_fd) {
    std::size_t done = 0;
    while (done < text.size()) {
        std::size_t piece = text.size() - done;
        if (stop_fd >= 0) {
            pollfd fds[2] = {{STDOUT_FILENO, POLLOUT, 0}, {stop_fd, POLLIN, 0}};
            if (::poll(fds, 2, -1) < 0 && errno != EINTR) return Written::failed;
            if (fds[1].revents) return Written::stopped;
            if (!fds[0].revents) continue;
            piece = std::min<std::size_t>(piece, PIPE_BUF);  // never more than the room poll saw
        }
        const ssize_t n = ::write(STDOUT_FILENO, text.data() + done, piece);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EPIPE) return Written::reader_gone;
        if (n <= 0) {
            const std::string message =
                std::string("musatop: cannot write the output: ") + std::strerror(n < 0 ? errno : EIO) + "\n";
            [[maybe_unused]] const ssize_t reported = ::write(STDERR_FILENO, message.data(), message.size());
            return Written::failed;
        }
        done += static_cast<std::size_t>(n);
    }
    return Written::ok;
}

}  // namespace musatop
