// The exposition checked by Prometheus' own tools: promtool, and a real Prometheus
// (the Debian package) scraping `musatop serve` on loopback.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "child_process.hpp"
#include "prometheus_server.hpp"
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
    const auto check = run_child(
        {"/bin/sh", "-c", "/usr/bin/promtool check metrics < " + (scenario.dir() / "metrics.txt").string()}, {}, 30s);
    EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
    EXPECT_EQ(check.out + check.err, "");  // not even a lint warning
    EXPECT_EQ(serve.stop(SIGTERM), 0) << serve.log();
}

TEST(Prometheus, ARealPrometheusScrapesTheAgent) {
    if (!PrometheusServer::installed()) GTEST_SKIP() << "prometheus missing (apt-get install prometheus)";
    Scenario scenario;
    scenario.use_reference_fixtures();
    ServeProcess serve(scenario, {"--interval", "0.5"});
    ASSERT_TRUE(serve.listening()) << serve.log();
    PrometheusServer prometheus(scenario, {serve.port()});
    const auto first_value = [&](const std::string& promql) { return prometheus.first_value(promql); };
    ASSERT_TRUE(wait_for([&] { return first_value("up{job=\"musatop\"}") == "1"; }, 60s, 200ms)) << prometheus.log();
    // The GPU values arrive as the agent exports them.
    const std::string agent = http_get(serve.port(), "/metrics").body;
    const std::string series = "musatop_gpu_memory_total_bytes{gpu=\"0\",uuid=\"";
    const auto at = agent.find(series);
    ASSERT_NE(at, std::string::npos);
    const auto line_end = agent.find('\n', at);
    const std::string expected =
        agent.substr(agent.rfind(' ', line_end) + 1, line_end - agent.rfind(' ', line_end) - 1);
    ASSERT_TRUE(
        wait_for([&] { return !first_value("musatop_gpu_memory_total_bytes{gpu=\"0\"}").empty(); }, 30s, 200ms));
    EXPECT_EQ(first_value("musatop_gpu_memory_total_bytes{gpu=\"0\"}"), expected);
    std::size_t gpus = 0;
    for (std::size_t i = agent.find("\nmusatop_gpu_info{"); i != std::string::npos;
         i = agent.find("\nmusatop_gpu_info{", i + 1))
        ++gpus;
    EXPECT_EQ(first_value("count(musatop_gpu_info)"), std::to_string(gpus));
    EXPECT_EQ(serve.stop(SIGTERM), 0) << serve.log();
}
