#include "tmux_session.hpp"

#include <filesystem>

#include <unistd.h>

#include <atomic>
#include <stdexcept>
#include <thread>

#include "child_process.hpp"

namespace musatop::testing {
namespace {

std::string shell_quote(const std::string& text) {
    std::string out = "'";
    for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

constexpr std::chrono::milliseconds kPoll{20};  // each look at the screen runs tmux

std::string unique_socket() {
    static std::atomic<int> counter{0};
    return "musatop-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
}

}  // namespace

TmuxSession::TmuxSession(const Scenario& scenario, const std::vector<std::string>& args, int width, int height,
                         const std::vector<std::string>& env, const std::vector<std::string>& launcher)
    : scenario_(scenario), socket_(unique_socket()) {
    const auto dir = scenario.dir();
    // A scenario may hold several sessions one after another: the files of the one
    // before would otherwise answer wait_for_exit() and stty_after() for this one.
    for (const char* name : {"exit", "exit.tmp", "stty.before", "stty.after", "stderr"})
        std::filesystem::remove(dir / name);
    std::string command = "stty -g > " + shell_quote((dir / "stty.before").string()) + "; env";
    for (const auto& entry : scenario.private_home()) command += " " + shell_quote(entry);
    for (const auto& entry : env) command += " " + shell_quote(entry);  // later entries win
    for (const auto& word : launcher) command += " " + shell_quote(word);
    command += " " + shell_quote(MUSATOP_BINARY);
    for (const auto& arg : args) command += " " + shell_quote(arg);
    command += " 2> " + shell_quote((dir / "stderr").string()) + "; echo $? > " +
               shell_quote((dir / "exit.tmp").string()) + "; stty -g > " + shell_quote((dir / "stty.after").string()) +
               "; mv " + shell_quote((dir / "exit.tmp").string()) + " " + shell_quote((dir / "exit").string()) +
               "; sleep 600";
    // bash, not sh: after Ctrl-C it goes on with the wrapper when musatop exits cleanly.
    tmux({"-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", std::to_string(width), "-y",
          std::to_string(height), "bash -c " + shell_quote(command)});
}

TmuxSession::~TmuxSession() { tmux({"kill-server"}); }

std::string TmuxSession::tmux(const std::vector<std::string>& args) const {
    std::vector<std::string> argv = {"/usr/bin/tmux", "-L", socket_};
    argv.insert(argv.end(), args.begin(), args.end());
    const std::vector<std::string> env = {"LANG=C.UTF-8",
                                          "LC_ALL=C.UTF-8",
                                          "PATH=" + scenario_.path_variable(),
                                          "FAKE_GMI_DIR=" + scenario_.dir().string(),
                                          "MUSA_HOME=",
                                          "MUSA_PATH=",
                                          "TMUX=",
                                          "TZ=UTC"};
    return run_child(argv, env, std::chrono::seconds(10)).out;
}

std::string TmuxSession::screen() const { return tmux({"capture-pane", "-p", "-t", "main"}); }
std::string TmuxSession::screen_with_escapes() const { return tmux({"capture-pane", "-p", "-e", "-t", "main"}); }

std::vector<std::string> TmuxSession::lines() const {
    std::vector<std::string> out;
    const std::string text = screen();
    std::size_t start = 0;
    for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
        out.push_back(text.substr(start, end - start));
    return out;
}

void TmuxSession::keys(const std::vector<std::string>& tmux_keys) const {
    std::vector<std::string> args = {"send-keys", "-t", "main"};
    args.insert(args.end(), tmux_keys.begin(), tmux_keys.end());
    tmux(args);
}

void TmuxSession::type(const std::string& text) const { tmux({"send-keys", "-t", "main", "-l", text}); }

void TmuxSession::mouse(int row, int column, int button, int times) const {
    const std::string where = std::to_string(button) + ";" + std::to_string(column + 1) + ";" + std::to_string(row + 1);
    std::string report = "\x1b[<" + where + "M";
    if (button < 64) report += "\x1b[<" + where + "m";
    std::string reports;
    for (int i = 0; i < times; ++i) reports += report;
    type(reports);
}

std::string TmuxSession::pane_format(const std::string& format) const {
    std::string out = tmux({"display-message", "-p", "-t", "main", format});
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
    return out;
}

void TmuxSession::resize(int width, int height) const {
    tmux({"resize-window", "-t", "main", "-x", std::to_string(width), "-y", std::to_string(height)});
}

void TmuxSession::signal_program(const std::string& signal_name) const {
    std::string pane = tmux({"list-panes", "-t", "main", "-F", "#{pane_pid}"});
    while (!pane.empty() && pane.back() == '\n') pane.pop_back();
    scenario_.run_script("pkill -" + signal_name + " -P " + pane + " -x musatop\n");
}

bool TmuxSession::wait_for(const std::string& text, std::chrono::milliseconds limit) const {
    return musatop::testing::wait_for([&] { return screen().find(text) != std::string::npos; }, limit, kPoll);
}

bool TmuxSession::wait_for_absent(const std::string& text, std::chrono::milliseconds limit) const {
    return musatop::testing::wait_for([&] { return screen().find(text) == std::string::npos; }, limit, kPoll);
}

bool TmuxSession::wait_for_exit(std::chrono::milliseconds limit) const {
    return musatop::testing::wait_for([&] { return std::filesystem::exists(scenario_.dir() / "exit"); }, limit, kPoll);
}

int TmuxSession::exit_code() const { return std::stoi(read_text(scenario_.dir() / "exit")); }
std::string TmuxSession::stty_before() const { return read_text(scenario_.dir() / "stty.before"); }
std::string TmuxSession::stty_after() const { return read_text(scenario_.dir() / "stty.after"); }

}  // namespace musatop::testing
