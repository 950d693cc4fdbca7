#include "child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <stdexcept>

extern char** environ;

namespace musatop::testing {
namespace {

std::vector<std::string> merged_environment(const std::vector<std::string>& extra) {
    std::vector<std::string> env = extra;
    for (char** entry = environ; entry && *entry; ++entry) {
        const std::string text(*entry);
        const std::string name = text.substr(0, text.find('=') + 1);
        bool overridden = false;
        for (const auto& e : extra) overridden = overridden || e.rfind(name, 0) == 0;
        if (!overridden) env.push_back(text);
    }
    return env;
}

// execve's argument arrays, pointing into `strings` (which must outlive them).
std::vector<char*> pointers(const std::vector<std::string>& strings) {
    std::vector<char*> out;
    for (const auto& s : strings) out.push_back(const_cast<char*>(s.c_str()));
    out.push_back(nullptr);
    return out;
}

void drain(int fd, std::string& into, bool& open) {
    char buffer[65536];
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n > 0) into.append(buffer, static_cast<std::size_t>(n));
    if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) open = false;
}

}  // namespace

ChildResult run_child(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                      std::chrono::milliseconds limit, bool ignore_sigchld) {
    int out[2], err[2];
    if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) throw std::runtime_error("pipe2 failed");
    const auto environment = merged_environment(env);
    const auto args = pointers(argv);
    const auto envp = pointers(environment);

    const pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
        ::setpgid(0, 0);
        if (ignore_sigchld) ::signal(SIGCHLD, SIG_IGN);
        const int null = ::open("/dev/null", O_RDONLY);
        ::dup2(null, 0);
        ::dup2(out[1], 1);
        ::dup2(err[1], 2);
        ::execve(args[0], args.data(), envp.data());
        ::_exit(127);
    }
    ::setpgid(pid, pid);
    ::close(out[1]);
    ::close(err[1]);

    ChildResult result;
    bool out_open = true, err_open = true;
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (out_open || err_open) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            result.timed_out = true;
            break;
        }
        pollfd fds[2] = {{out_open ? out[0] : -1, POLLIN, 0}, {err_open ? err[0] : -1, POLLIN, 0}};
        if (::poll(fds, 2, static_cast<int>(left.count())) < 0 && errno != EINTR) break;
        if (fds[0].revents) drain(out[0], result.out, out_open);
        if (fds[1].revents) drain(err[0], result.err, err_open);
    }
    ::close(out[0]);
    ::close(err[0]);
    if (result.timed_out) ::kill(-pid, SIGKILL);
    int status = 0;
    // Output closed does not mean exited (a child may close its stdout): bound the wait too.
    while (::waitpid(pid, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() >= deadline) {
            result.timed_out = true;
            ::kill(-pid, SIGKILL);
            ::waitpid(pid, &status, 0);
            break;
        }
        ::usleep(1000);
    }
    if (WIFEXITED(status) && !result.timed_out) result.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
    return result;
}

BackgroundChild::BackgroundChild(const std::vector<std::string>& argv, const std::vector<std::string>& env) {
    const auto environment = merged_environment(env);
    const auto args = pointers(argv);
    const auto envp = pointers(environment);
    pid_ = ::fork();
    if (pid_ == 0) {
        const int null = ::open("/dev/null", O_RDWR);
        for (int fd = 0; fd <= 2; ++fd) ::dup2(null, fd);
        ::execve(args[0], args.data(), envp.data());
        ::_exit(127);
    }
}

BackgroundChild::~BackgroundChild() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
}

int BackgroundChild::wait(std::chrono::milliseconds limit) {
    const auto give_up = std::chrono::steady_clock::now() + limit;
    int status = 0;
    while (::waitpid(pid_, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() >= give_up) return -1;
        ::usleep(1000);
    }
    pid_ = -1;
    return status;
}

}  // namespace musatop::testing
