// The exposition checked by Prometheus' own tools: promtool, and a real Prometheus
// (the Debian package) scraping `musatop serve` on loopback.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "child_process.hpp"
#include "serve_process.hpp"

using namespace musatop::testing;
using namespace std::chrono_literals;

namespace {

bool installed(const char* path) { return ::access(path, X_OK) == 0; }

}  // namespace

TEST(Prometheus, PromtoolFindsNoProblem) {
    if (!installed("/usr/bin/promtool")) GTEST_SKIP() << "promtool missing (apt-get install prometheus)";
    Scenario scenario;
    scenario.use_reference_fixtures();
    scenario.set("summary.out", gmi_process_table({{0, 4000001, "python \"train\".py", 10}, {3, 4000002, "x", 20}}));
    ServeProcess serve(scenario, {"--interval", "0.2", "--process-metrics=command"});
    ASSERT_TRUE(serve.listening()) << serve.log();
    ASSERT_TRUE(wait_for([&] { return http_get(serve.port(), "/healthz").status == 200; }));
    scenario.set("metrics.txt", http_get(serve.port(), "/metrics").body);
    const auto check = run_child({"/bin/sh", "-c", "/usr/bin/promtool check metrics < " +
                                                       (scenario.dir() / "metrics.txt").string()},
                                 {}, 30s);
    EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
    EXPECT_EQ(check.out + check.err, "");  // not even a lint warning
    EXPECT_EQ(serve.stop(SIGTERM), 0);
}

TEST(Prometheus, ARealPrometheusScrapesTheAgent) {
    if (!installed("/usr/bin/prometheus")) GTEST_SKIP() << "prometheus missing (apt-get install prometheus)";
    Scenario scenario;
    scenario.use_reference_fixtures();
    ServeProcess serve(scenario, {"--interval", "0.5"});
    ASSERT_TRUE(serve.listening()) << serve.log();
    const int web_port = free_port();
    scenario.set("prometheus.yml", "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
                                   "scrape_configs:\n  - job_name: musatop\n    static_configs:\n"
                                   "      - targets: ['127.0.0.1:" + std::to_string(serve.port()) + "']\n");
    const pid_t prometheus = ::fork();
    if (prometheus == 0) {
        const std::string config = "--config.file=" + (scenario.dir() / "prometheus.yml").string();
        const std::string data = "--storage.tsdb.path=" + (scenario.dir() / "data").string();
        const std::string listen = "--web.listen-address=127.0.0.1:" + std::to_string(web_port);
        const std::string log = (scenario.dir() / "prometheus.log").string();
        if (!std::freopen(log.c_str(), "w", stderr) || !std::freopen("/dev/null", "w", stdout)) ::_exit(126);
        ::execl("/usr/bin/prometheus", "prometheus", config.c_str(), data.c_str(), listen.c_str(),
                "--storage.tsdb.retention.time=1h", static_cast<char*>(nullptr));
        ::_exit(127);
    }
    struct Reaper {
        pid_t pid;
        ~Reaper() {
            ::kill(pid, SIGTERM);
            int status = 0;
            if (!wait_for([&] { return ::waitpid(pid, &status, WNOHANG) == pid; }, 10s)) {
                ::kill(pid, SIGKILL);
                ::waitpid(pid, &status, 0);
            }
        }
    } reaper{prometheus};

    const auto query = [&](const std::string& promql) {
        std::string encoded;
        for (unsigned char c : promql) {
            char hex[4];
            std::snprintf(hex, sizeof hex, "%%%02X", c);
            encoded += std::isalnum(c) ? std::string(1, static_cast<char>(c)) : hex;
        }
        const auto reply = http_get(web_port, "/api/v1/query?query=" + encoded);
        return reply.status == 200 ? nlohmann::json::parse(reply.body) : nlohmann::json();
    };
    const auto first_value = [](const nlohmann::json& answer) -> std::string {
        if (!answer.is_object() || answer["data"]["result"].empty()) return "";
        return answer["data"]["result"][0]["value"][1].get<std::string>();
    };
    ASSERT_TRUE(wait_for([&] { return first_value(query("up{job=\"musatop\"}")) == "1"; }, 60s, 200ms))
        << read_text(scenario.dir() / "prometheus.log");
    // The GPU values arrive as the agent exports them.
    const std::string agent = http_get(serve.port(), "/metrics").body;
    const std::string series = "musatop_gpu_memory_total_bytes{gpu=\"0\",uuid=\"";
    const auto at = agent.find(series);
    ASSERT_NE(at, std::string::npos);
    const auto line_end = agent.find('\n', at);
    const std::string expected = agent.substr(agent.rfind(' ', line_end) + 1, line_end - agent.rfind(' ', line_end) - 1);
    ASSERT_TRUE(wait_for([&] { return !first_value(query("musatop_gpu_memory_total_bytes{gpu=\"0\"}")).empty(); },
                         30s, 200ms));
    EXPECT_EQ(first_value(query("musatop_gpu_memory_total_bytes{gpu=\"0\"}")), expected);
    std::size_t gpus = 0;
    for (std::size_t i = agent.find("\nmusatop_gpu_info{"); i != std::string::npos; i = agent.find("\nmusatop_gpu_info{", i + 1))
        ++gpus;
    EXPECT_EQ(first_value(query("count(musatop_gpu_info)")), std::to_string(gpus));
    EXPECT_EQ(serve.stop(SIGTERM), 0);
}
