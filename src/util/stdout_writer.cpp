#include "musatop/util/stdout_writer.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace musatop {

Written write_stdout(std::string_view text) {
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(STDOUT_FILENO, text.data() + done, text.size() - done);
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
