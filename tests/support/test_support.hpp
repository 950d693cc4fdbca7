// Helpers shared by the unit and end-to-end tests: fixtures, temporary directories,
// files, and a fake-GMI scenario directory.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <chrono>
#include <thread>

namespace musatop::testing {

inline std::string read_text(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path.string());
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

// A point on the monotonic clock, `seconds` after its epoch: tests state history
// times as plain numbers.
inline std::chrono::steady_clock::time_point mono(double seconds) {
    return std::chrono::steady_clock::time_point(
        std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds)));
}

inline std::string fixture(const std::string& name) {
    return read_text(std::filesystem::path(MUSATOP_FIXTURES) / name);
}

inline void write_text(const std::filesystem::path& path, const std::string& text) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
}

// Waits (up to `limit`) until `pid` no longer runs: gone, or a zombie waiting for
// its parent. A condition with a bound, not a sleep that hopes.
inline bool wait_until_dead(pid_t pid, std::chrono::milliseconds limit = std::chrono::milliseconds(5000)) {
    const auto give_up = std::chrono::steady_clock::now() + limit;
    for (;;) {
        std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
        std::string text;
        std::getline(stat, text);
        const auto close = text.rfind(')');
        if (!stat || close == std::string::npos || text.compare(close, 3, ") Z") == 0) return true;
        if (std::chrono::steady_clock::now() >= give_up) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

// Polls `condition` until it holds or `limit` passes: a bounded wait for a state,
// never a fixed sleep.
template <typename Condition>
bool wait_for(Condition condition, std::chrono::milliseconds limit = std::chrono::seconds(10),
              std::chrono::milliseconds poll = std::chrono::milliseconds(1)) {
    const auto give_up = std::chrono::steady_clock::now() + limit;
    while (!condition()) {
        if (std::chrono::steady_clock::now() >= give_up) return false;
        std::this_thread::sleep_for(poll);
    }
    return true;
}

// A real `sleep` child for the tests to enrich, show and terminate. The kernel wakes
// the parent of a vfork-style spawn before the new program's arguments are in place,
// so wait (bounded) until /proc shows them. The destructor kills and reaps it.
class SleepChild {
public:
    explicit SleepChild(const std::string& seconds = "300") {
        std::string arg0 = "sleep";
        std::string arg1 = seconds;
        char* argv[] = {arg0.data(), arg1.data(), nullptr};
        if (::posix_spawnp(&pid_, "sleep", nullptr, nullptr, argv, environ) != 0) throw std::runtime_error("spawn");
        const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (std::chrono::steady_clock::now() < give_up) {
            std::ifstream cmdline("/proc/" + std::to_string(pid_) + "/cmdline");
            std::string text((std::istreambuf_iterator<char>(cmdline)), std::istreambuf_iterator<char>());
            if (text.find(seconds) != std::string::npos) return;
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    }
    SleepChild(const SleepChild&) = delete;
    SleepChild& operator=(const SleepChild&) = delete;
    ~SleepChild() { stop(SIGKILL); }

    pid_t pid() const { return pid_; }
    // Kills (if still running) and reaps; returns the wait status.
    int stop(int signal) {
        if (pid_ <= 0) return status_;
        ::kill(pid_, signal);
        ::waitpid(pid_, &status_, 0);
        pid_ = -1;
        return status_;
    }
    // Reaps a child that something else signalled; returns the wait status.
    int reap() {
        if (pid_ > 0) ::waitpid(pid_, &status_, 0);
        pid_ = -1;
        return status_;
    }

private:
    pid_t pid_ = -1;
    int status_ = 0;
};

// A fresh directory under $TMPDIR, removed with its contents when the object dies.
class TempDir {
public:
    TempDir() {
        std::string pattern = (std::filesystem::temp_directory_path() / "musatop-test-XXXXXX").string();
        if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
        path_ = pattern;
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    ~TempDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

private:
    std::filesystem::path path_;
};

}  // namespace musatop::testing
