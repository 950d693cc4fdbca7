#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "musatop/cli/app.hpp"
#include "musatop/cli/gpustat_command.hpp"

namespace {

// A closed standard descriptor would be handed to the next file musatop opens, and
// output meant for the terminal would land there. Park /dev/null on it instead;
// a closed stdout is then reported when output is written.
bool protect_standard_descriptors() {
    bool stdout_closed = false;
    for (int fd = 0; fd <= 2; ++fd) {
        if (::fcntl(fd, F_GETFD) != -1) continue;
        stdout_closed = stdout_closed || fd == STDOUT_FILENO;
        const int opened = ::open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
        if (opened >= 0 && opened != fd) {
            ::dup2(opened, fd);
            ::close(opened);
        }
    }
    return stdout_closed;
}

}  // namespace

int main(int argc, char** argv) {
    const bool stdout_closed = protect_standard_descriptors();
    // A parent may start us with SIGCHLD ignored (some job runners, Python's
    // signal(SIGCHLD, SIG_IGN)); the kernel would then reap GMI children itself and
    // their exit status would be lost. Their reaping is ours.
    ::signal(SIGCHLD, SIG_DFL);
    std::vector<std::string> args(argv + 1, argv + argc);
    // Run through a link named gpustat, it is `musatop gpustat` (docs/gpustat.md).
    if (argc > 0 && musatop::cli::invoked_as_gpustat(argv[0])) args.insert(args.begin(), "gpustat");
    return musatop::cli::run_program(args, stdout_closed);
}
