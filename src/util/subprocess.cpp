#include "musatop/util/subprocess.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

#include "musatop/util/pidfd.hpp"
#include "musatop/util/unique_fd.hpp"

extern char** environ;

namespace musatop::subprocess {
namespace {

using Clock = std::chrono::steady_clock;

std::string errno_text(int error) { return std::strerror(error); }

std::vector<std::string> build_environment(const std::vector<std::string>& extra) {
    std::vector<std::string> env = extra;
    for (char** entry = environ; entry && *entry; ++entry) {
        const std::string_view text(*entry);
        const auto name = text.substr(0, text.find('='));
        const bool replaced = std::any_of(extra.begin(), extra.end(), [&](const std::string& e) {
            return std::string_view(e).substr(0, e.find('=')) == name;
        });
        if (!replaced) env.emplace_back(text);
    }
    return env;
}

std::vector<char*> as_pointers(std::vector<std::string>& strings) {
    std::vector<char*> pointers;
    for (auto& s : strings) pointers.push_back(s.data());
    pointers.push_back(nullptr);
    return pointers;
}

// One running command. The destructor guarantees the process group is killed and the
// child reaped, whatever path the runner leaves by.
class Child {
public:
    Child(const CommandSpec& spec, std::vector<std::string>& env, Clock::time_point now)
        : started_(now), deadline_(now + spec.timeout) {
        int out_pipe[2];
        int err_pipe[2];
        if (::pipe2(out_pipe, O_CLOEXEC) != 0) {
            fail(errno);
            return;
        }
        out_.reset(out_pipe[0]);
        UniqueFd out_write(out_pipe[1]);
        if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
            fail(errno);
            return;
        }
        err_.reset(err_pipe[0]);
        UniqueFd err_write(err_pipe[1]);

        posix_spawn_file_actions_t actions;
        posix_spawnattr_t attributes;
        posix_spawn_file_actions_init(&actions);
        posix_spawnattr_init(&attributes);
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_adddup2(&actions, out_write.get(), 1);
        posix_spawn_file_actions_adddup2(&actions, err_write.get(), 2);
        // Own process group: a timeout kills GMI and anything it started.
        posix_spawnattr_setpgroup(&attributes, 0);
        sigset_t empty_mask;
        sigset_t defaults;
        sigemptyset(&empty_mask);
        sigfillset(&defaults);
        sigdelset(&defaults, SIGKILL);
        sigdelset(&defaults, SIGSTOP);
        posix_spawnattr_setsigmask(&attributes, &empty_mask);
        posix_spawnattr_setsigdefault(&attributes, &defaults);
        posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

        std::vector<std::string> argv = spec.argv;
        auto argv_pointers = as_pointers(argv);
        auto env_pointers = as_pointers(env);
        const int error =
            ::posix_spawn(&pid_, argv[0].c_str(), &actions, &attributes, argv_pointers.data(), env_pointers.data());
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attributes);
        if (error != 0) {
            pid_ = -1;
            fail(error);
            return;
        }
        pidfd_ = pidfd::open(pid_);
        ::fcntl(out_.get(), F_SETFL, O_NONBLOCK);
        ::fcntl(err_.get(), F_SETFL, O_NONBLOCK);
    }

    Child(const Child&) = delete;
    Child& operator=(const Child&) = delete;
    ~Child() { kill_and_reap(); }

    bool finished() const { return outcome_set_; }
    const CommandOutcome& outcome() const { return outcome_; }
    Clock::time_point deadline() const { return deadline_; }
    int pidfd() const { return pidfd_.get(); }
    int out_fd() const { return out_.get(); }
    int err_fd() const { return err_.get(); }

    // Reads what is available; false when the output cap was exceeded.
    bool read_available(int fd, std::size_t cap) {
        std::string& target = fd == out_.get() ? outcome_.stdout_text : outcome_.stderr_text;
        char buffer[65536];
        for (;;) {
            const ssize_t n = ::read(fd, buffer, sizeof buffer);
            if (n > 0) {
                target.append(buffer, static_cast<std::size_t>(n));
                if (outcome_.stdout_text.size() + outcome_.stderr_text.size() > cap) return false;
                continue;
            }
            if (n == 0) (fd == out_.get() ? out_ : err_).reset();
            return true;  // EOF or EAGAIN
        }
    }

    // Non-blocking: true once the child has exited (it stays a zombie until reaped,
    // so its process group id cannot be reused while we kill strays).
    bool has_exited() {
        if (exited_) return true;
        siginfo_t info{};
        if (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0) {
            exited_ = info.si_pid == pid_;
        } else if (errno == ECHILD) {
            // Reaped by someone else (SIGCHLD ignored, or a library's waitpid(-1)):
            // it has exited, and its PID and group are no longer ours to signal.
            exited_ = true;
            status_lost_ = true;
        }
        return exited_;
    }

    void finish_after_exit(std::size_t cap) {
        if (!status_lost_) ::kill(-pid_, SIGKILL);  // strays that still hold the pipes open
        const bool within_cap = drain(cap);
        int status = 0;
        while (!status_lost_ && ::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {}
        pid_ = -1;
        if (status_lost_) {
            outcome_.kind = CommandOutcome::Kind::status_lost;
        } else if (!within_cap) {
            outcome_.kind = CommandOutcome::Kind::output_too_large;
        } else if (WIFSIGNALED(status)) {
            outcome_.kind = CommandOutcome::Kind::signaled;
            outcome_.signal = WTERMSIG(status);
        } else {
            outcome_.kind = CommandOutcome::Kind::exited;
            outcome_.exit_code = WEXITSTATUS(status);
        }
        outcome_.elapsed = Clock::now() - started_;
        outcome_set_ = true;
    }

    void abort(CommandOutcome::Kind kind, const RunLimits& limits) {
        kill_and_reap(&limits);
        outcome_.kind = kind;
        outcome_.elapsed = Clock::now() - started_;
        outcome_set_ = true;
    }

private:
    void fail(int error) {
        outcome_.kind = CommandOutcome::Kind::start_failed;
        outcome_.start_error = errno_text(error);
        outcome_set_ = true;
    }

    // The group is dead, so EOF comes at once; the bound covers a stray that left the
    // group (setsid) while keeping the pipe open.
    bool drain(std::size_t cap) {
        const auto give_up = Clock::now() + std::chrono::milliseconds(200);
        while ((out_.valid() || err_.valid()) && Clock::now() < give_up) {
            pollfd fds[2] = {{out_.get(), POLLIN, 0}, {err_.get(), POLLIN, 0}};
            if (::poll(fds, 2, 50) < 0 && errno != EINTR) break;
            for (const auto& entry : fds)
                if (entry.fd >= 0 && (entry.revents & (POLLIN | POLLHUP | POLLERR)) && !read_available(entry.fd, cap))
                    return false;
        }
        out_.reset();
        err_.reset();
        return true;
    }

    // SIGKILL to the group, then a bounded wait: a child that does not die in time
    // is parked with the caller's reaper (or left to init), never waited for.
    void kill_and_reap(const RunLimits* limits = nullptr) {
        out_.reset();
        err_.reset();
        if (pid_ <= 0 || status_lost_) return;
        ::kill(-pid_, SIGKILL);
        ::kill(pid_, SIGKILL);
        const auto grace = limits ? limits->kill_grace : std::chrono::milliseconds(500);
        const bool gone = limits && limits->wait_exited ? limits->wait_exited(pid_, grace) : wait_exited(grace);
        if (gone) {
            while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {}
        } else {
            outcome_.parked = true;
            if (limits && limits->reaper) limits->reaper->park(pid_);
        }
        pid_ = -1;
    }

    bool wait_exited(std::chrono::milliseconds grace) {
        const auto give_up = Clock::now() + grace;
        for (;;) {
            if (has_exited()) return true;
            const auto left = std::chrono::ceil<std::chrono::milliseconds>(give_up - Clock::now()).count();
            if (left <= 0) return false;
            if (pidfd_.valid()) {
                pollfd fd{pidfd_.get(), POLLIN, 0};
                ::poll(&fd, 1, static_cast<int>(left));
            } else {
                ::usleep(static_cast<useconds_t>(std::min<long long>(left, 5) * 1000));
            }
        }
    }

    pid_t pid_ = -1;
    UniqueFd pidfd_;
    UniqueFd out_;
    UniqueFd err_;
    bool exited_ = false;
    bool status_lost_ = false;
    bool outcome_set_ = false;
    CommandOutcome outcome_;
    Clock::time_point started_;
    Clock::time_point deadline_;
};

}  // namespace

std::vector<CommandOutcome> run_commands(const std::vector<CommandSpec>& specs,
                                         const std::vector<std::string>& extra_env, const RunLimits& limits) {
    auto env = build_environment(extra_env);
    std::vector<std::unique_ptr<Child>> children;
    const auto start = Clock::now();
    for (const auto& spec : specs) children.push_back(std::make_unique<Child>(spec, env, start));

    for (;;) {
        std::vector<pollfd> fds;
        std::vector<Child*> owners;
        auto next_deadline = Clock::time_point::max();
        bool need_tick = false;  // no pidfd: poll waitid on a short tick
        for (auto& child : children) {
            if (child->finished()) continue;
            if (child->has_exited()) {
                child->finish_after_exit(limits.max_output_bytes);
                continue;
            }
            next_deadline = std::min(next_deadline, child->deadline());
            for (int fd : {child->out_fd(), child->err_fd(), child->pidfd()}) {
                if (fd < 0) continue;
                fds.push_back({fd, POLLIN, 0});
                owners.push_back(child.get());
            }
            if (child->pidfd() < 0) need_tick = true;
        }
        if (owners.empty()) break;
        if (limits.cancel_fd >= 0) fds.push_back({limits.cancel_fd, POLLIN, 0});

        const auto now = Clock::now();
        auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(next_deadline - now).count() + 1;
        if (need_tick) wait = std::min<long long>(wait, 10);
        const int ready = ::poll(fds.data(), fds.size(), static_cast<int>(std::max<long long>(0, wait)));
        if (ready < 0 && errno != EINTR) break;

        if (limits.cancel_fd >= 0 && (fds.back().revents & POLLIN)) {
            for (auto& child : children)
                if (!child->finished()) child->abort(CommandOutcome::Kind::cancelled, limits);
            break;
        }
        for (std::size_t i = 0; i < owners.size(); ++i) {
            Child* child = owners[i];
            if (child->finished() || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            if (fds[i].fd == child->pidfd()) continue;  // exit is handled at the top of the loop
            if (!child->read_available(fds[i].fd, limits.max_output_bytes))
                child->abort(CommandOutcome::Kind::output_too_large, limits);
        }
        const auto after = Clock::now();
        for (auto& child : children)
            if (!child->finished() && after >= child->deadline()) child->abort(CommandOutcome::Kind::timed_out, limits);
    }

    std::vector<CommandOutcome> outcomes;
    for (auto& child : children) {
        if (!child->finished()) child->abort(CommandOutcome::Kind::cancelled, limits);
        outcomes.push_back(child->outcome());
    }
    return outcomes;
}

std::size_t ChildReaper::reap_finished() {
    std::erase_if(pids_, [](pid_t pid) {
        const pid_t result = ::waitpid(pid, nullptr, WNOHANG);
        return result == pid || (result < 0 && errno == ECHILD);
    });
    return pids_.size();
}

ExecutableLookup resolve_executable(const std::string& name, const std::string& path_variable) {
    const auto check = [](const std::string& candidate) -> ExecutableLookup {
        struct stat info {};
        if (::stat(candidate.c_str(), &info) != 0) {
            if (errno == ENOENT || errno == ENOTDIR) return {ExecutableLookup::Status::not_found, candidate, {}};
            return {ExecutableLookup::Status::unusable, candidate, errno_text(errno)};
        }
        if (S_ISDIR(info.st_mode)) return {ExecutableLookup::Status::unusable, candidate, errno_text(EACCES)};
        if (::access(candidate.c_str(), X_OK) != 0)
            return {ExecutableLookup::Status::unusable, candidate, errno_text(errno)};
        return {ExecutableLookup::Status::found, candidate, {}};
    };
    if (name.find('/') != std::string::npos) return check(name);

    ExecutableLookup result{ExecutableLookup::Status::not_found, {}, {}};
    std::size_t start = 0;
    while (start <= path_variable.size()) {
        const auto end = std::min(path_variable.find(':', start), path_variable.size());
        const std::string directory = path_variable.substr(start, end - start);
        start = end + 1;
        if (directory.empty() || directory.front() != '/') continue;  // never the current directory
        auto candidate = check(directory + "/" + name);
        if (candidate.status == ExecutableLookup::Status::found) return candidate;
        if (candidate.status == ExecutableLookup::Status::unusable &&
            result.status == ExecutableLookup::Status::not_found)
            result = candidate;
    }
    return result;
}

}  // namespace musatop::subprocess
