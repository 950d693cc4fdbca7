#include "prometheus_server.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>

#include "serve_process.hpp"

namespace musatop::testing {

bool PrometheusServer::installed() { return ::access("/usr/bin/prometheus", X_OK) == 0; }

PrometheusServer::PrometheusServer(const Scenario& scenario, const std::vector<int>& target_ports,
                                   const std::string& job)
    : scenario_(scenario), port_(free_port()) {
    std::string targets;
    for (const int port : target_ports)
        targets += std::string(targets.empty() ? "" : ", ") + "'127.0.0.1:" + std::to_string(port) + "'";
    scenario.set("prometheus.yml",
                 "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
                 "scrape_configs:\n  - job_name: " +
                     job +
                     "\n    static_configs:\n"
                     "      - targets: [" +
                     targets + "]\n");
    const std::string config = "--config.file=" + (scenario.dir() / "prometheus.yml").string();
    const std::string data = "--storage.tsdb.path=" + (scenario.dir() / "data").string();
    const std::string listen = "--web.listen-address=127.0.0.1:" + std::to_string(port_);
    const std::string log_path = (scenario.dir() / "prometheus.log").string();
    pid_ = ::fork();
    if (pid_ == 0) {
        if (!std::freopen(log_path.c_str(), "w", stderr) || !std::freopen("/dev/null", "w", stdout)) ::_exit(126);
        ::execl("/usr/bin/prometheus", "prometheus", config.c_str(), data.c_str(), listen.c_str(),
                "--storage.tsdb.retention.time=1h", static_cast<char*>(nullptr));
        ::_exit(127);
    }
}

PrometheusServer::~PrometheusServer() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    int status = 0;
    if (!wait_for([&] { return ::waitpid(pid_, &status, WNOHANG) == pid_; }, std::chrono::seconds(10))) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
    }
}

nlohmann::json PrometheusServer::query(const std::string& promql) const {
    std::string encoded;
    for (unsigned char c : promql) {
        char hex[4];
        std::snprintf(hex, sizeof hex, "%%%02X", c);
        encoded += std::isalnum(c) ? std::string(1, static_cast<char>(c)) : hex;
    }
    const auto reply = http_get(port_, "/api/v1/query?query=" + encoded);
    return reply.status == 200 ? nlohmann::json::parse(reply.body, nullptr, false) : nlohmann::json();
}

std::string PrometheusServer::first_value(const std::string& promql) const {
    const auto answer = query(promql);
    if (!answer.is_object() || !answer.contains("data") || answer["data"]["result"].empty()) return "";
    return answer["data"]["result"][0]["value"][1].get<std::string>();
}

std::string PrometheusServer::log() const { return read_text(scenario_.dir() / "prometheus.log"); }

}  // namespace musatop::testing
