// `musatop serve` as a user runs it: started on a free loopback port against the
// fake GMI, spoken to over real sockets.
#include <gtest/gtest.h>

#include <filesystem>
#include <signal.h>
#include <sys/wait.h>
#include <zlib.h>

#include <cctype>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "driver_records.hpp"
#include "driver_tree.hpp"
#include "serve_process.hpp"

using namespace musatop::testing;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

void reference(const Scenario& scenario) { scenario.use_reference_fixtures(); }

std::string gunzip(const std::string& data) {
    z_stream z{};
    inflateInit2(&z, 16 + MAX_WBITS);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z.avail_in = static_cast<uInt>(data.size());
    std::string out;
    char buffer[65536];
    int status = Z_OK;
    while (status == Z_OK) {
        z.next_out = reinterpret_cast<Bytef*>(buffer);
        z.avail_out = sizeof buffer;
        status = inflate(&z, Z_NO_FLUSH);
        out.append(buffer, sizeof buffer - z.avail_out);
    }
    inflateEnd(&z);
    return status == Z_STREAM_END ? out : std::string();
}

bool has_line(const std::string& text, const std::string& prefix) {
    return text.find("\n" + prefix) != std::string::npos || text.rfind(prefix, 0) == 0;
}

}  // namespace

TEST(Serve, EndpointsAnswerFromTheNewestFrame) {
    Scenario scenario;
    reference(scenario);
    ServeProcess serve(scenario, {"--interval", "0.2"});
    ASSERT_TRUE(serve.listening()) << serve.log();
    EXPECT_NE(serve.log().find("listening on http://127.0.0.1:" + std::to_string(serve.port()) +
                               " (interval 0.2 s, source mthreads-gmi and /proc, at most "),
              std::string::npos)
        << serve.log();
    ASSERT_TRUE(wait_for([&] { return http_get(serve.port(), "/healthz").status == 200; }));
    EXPECT_EQ(http_get(serve.port(), "/healthz").body, "ok\n");

    const auto metrics = http_get(serve.port(), "/metrics");
    EXPECT_EQ(metrics.status, 200);
    EXPECT_EQ(metrics.headers.at("content-type"), "text/plain; version=0.0.4; charset=utf-8");
    EXPECT_TRUE(has_line(metrics.body, "musatop_collect_success{source=\"devices\"} 1"));

    const auto index = http_get(serve.port(), "/");
    EXPECT_EQ(index.status, 200);
    EXPECT_NE(index.headers.at("content-type").find("text/html"), std::string::npos);
    EXPECT_NE(index.body.find("/api/v1/snapshot"), std::string::npos);
    EXPECT_NE(index.body.find("musatop 0.3.0"), std::string::npos);

    const auto missing = http_get(serve.port(), "/nope");
    EXPECT_EQ(missing.status, 404);
    EXPECT_EQ(serve.stop(SIGTERM), 0) << serve.log();
}

TEST(Serve, SnapshotIsTheJsonDocumentAndMetricsCarryItsValues) {
    Scenario scenario;
    reference(scenario);
    const auto one_shot = scenario.run({"--json", "--gpu", "3"});
    ASSERT_EQ(one_shot.exit_code, 0) << one_shot.err;
    ServeProcess serve(scenario, {"--interval", "0.2", "--gpu", "3"});
    ASSERT_TRUE(serve.listening()) << serve.log();
    ASSERT_TRUE(wait_for([&] { return http_get(serve.port(), "/healthz").status == 200; }));
    const auto reply = http_get(serve.port(), "/api/v1/snapshot");
    ASSERT_EQ(reply.status, 200);
    EXPECT_EQ(reply.headers.at("content-type"), "application/json");
    const json served = json::parse(reply.body);
    const json printed = json::parse(one_shot.out);
    // Same schema, keys in the same order, same devices; only times and live CPU differ.
    std::vector<std::string> served_keys, printed_keys;
    for (auto it = served.begin(); it != served.end(); ++it) served_keys.push_back(it.key());
    for (auto it = printed.begin(); it != printed.end(); ++it) printed_keys.push_back(it.key());
    EXPECT_EQ(served_keys, printed_keys);
    EXPECT_EQ(served["devices"], printed["devices"]);
    EXPECT_EQ(served["devices"].size(), 1u);
    ASSERT_EQ(served["processes"].size(), printed["processes"].size());
    for (std::size_t i = 0; i < served["processes"].size(); ++i)
        EXPECT_EQ(served["processes"][i]["gpu_memory_bytes"], printed["processes"][i]["gpu_memory_bytes"]);

    const std::string metrics = http_get(serve.port(), "/metrics").body;
    for (const auto& device : printed["devices"]) {
        const std::string labels = "{gpu=\"" + std::to_string(device["index"].get<int>()) + "\",uuid=\"" +
                                   device["uuid"].get<std::string>() + "\"}";
        if (device["memory_total_bytes"].is_number()) {
            EXPECT_TRUE(has_line(metrics, "musatop_gpu_memory_total_bytes" + labels + " " +
                                              std::to_string(device["memory_total_bytes"].get<long long>())))
                << labels;
        }
        if (device["temperature_c"].is_null()) {
            EXPECT_FALSE(has_line(metrics, "musatop_gpu_temperature_celsius" + labels));  // N/A: omitted
        }
    }
    EXPECT_EQ(metrics.find("musatop_gpu_info{gpu=\"0\""), std::string::npos);  // --gpu applies
    EXPECT_EQ(serve.stop(SIGTERM), 0) << serve.log();
}

TEST(Serve, HeadMethodsGzipAndLimits) {
    Scenario scenario;
    reference(scenario);
    ServeProcess serve(scenario, {"--interval", "0.2"});
    ASSERT_TRUE(serve.listening()) << serve.log();
    ASSERT_TRUE(wait_for([&] { return http_get(serve.port(), "/healthz").status == 200; }));

    const auto head = http_get(serve.port(), "/metrics", "", "HEAD");
    EXPECT_EQ(head.status, 200);
    EXPECT_TRUE(head.body.empty());
    EXPECT_GT(std::stoul(head.headers.at("content-length")), 100u);

    for (const char* method : {"POST", "PUT", "DELETE", "OPTIONS"}) {
        const auto refused = http_get(serve.port(), "/metrics", "", method);
        EXPECT_EQ(refused.status, 405) << method;
        EXPECT_EQ(refused.headers.at("allow"), "GET, HEAD") << method;
    }
    const auto body = http_raw(serve.port(), "GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello");
    EXPECT_EQ(body.status, 413);
    const auto big =
        http_raw(serve.port(), "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Filler: " + std::string(9000, 'a') + "\r\n\r\n");
    EXPECT_EQ(big.status, 431);
    std::string many = "GET /metrics HTTP/1.1\r\nHost: x\r\n";
    for (int i = 0; i < 200; ++i) many += "X-H" + std::to_string(i) + ": " + std::string(40, 'b') + "\r\n";
    EXPECT_EQ(http_raw(serve.port(), many + "\r\n").status, 431);  // many small headers add up too

    const auto zipped = http_get(serve.port(), "/metrics", "Accept-Encoding: gzip\r\n");
    ASSERT_EQ(zipped.status, 200);
    EXPECT_EQ(zipped.headers.at("content-encoding"), "gzip");
    const std::string plain = gunzip(zipped.body);
    EXPECT_NE(plain.find("# TYPE musatop_gpu_info gauge"), std::string::npos);
    EXPECT_LT(zipped.body.size(), plain.size());
    EXPECT_EQ(http_get(serve.port(), "/healthz").status, 200);  // still serving
    EXPECT_EQ(serve.stop(SIGTERM), 0) << serve.log();
}

TEST(Serve, KeepAliveServesSeveralRequestsOnOneConnection) {
    Scenario scenario;
    reference(scenario);
    ServeProcess serve(scenario, {"--interval", "0.2"});
    ASSERT_TRUE(serve.listening()) << serve.log();
    RawConnection connection(serve.port());
    // Two pipelined requests in one write, the second closing the connection.
    ASSERT_TRUE(
        connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n"
                        "Connection: close\r\n\r\n"));
    bool closed = false;
    std::string both;
    while (!closed) {
        const std::string part = connection.read_until_closed(5s, closed);
        if (part.empty() && !closed) break;
        both += part;
    }
    EXPECT_EQ(std::count(both.begin(), both.end(), 'H') >= 2, true);
    std::size_t replies = 0;
    for (std::size_t at = both.find("HTTP/1.1 "); at != std::string::npos; at = both.find("HTTP/1.1 ", at + 1))
        ++replies;
    EXPECT_EQ(replies, 2u) << both;
    EXPECT_TRUE(closed);
    EXPECT_EQ(serve.stop(SIGTERM), 0) << serve.log();
}

TEST(Serve, StaleDevicesAfterTheFakeStartsFailing) {
    Scenario scenario;
    reference(scenario);
    ServeProcess serve(scenario, {"--interval", "0.1"});
    ASSERT_TRUE(serve.listening()) << serve.log();
    ASSERT_TRUE(wait_for([&] { return http_get(serve.port(), "/healthz").status == 200; }));
    scenario.set("query.rc", "3");
    scenario.set("query.err", "Error: driver not loaded");
    scenario.set("summary.rc", "3");
    ASSERT_TRUE(wait_for([&] { return http_get(serve.port(), "/healthz").status == 503; }));
    EXPECT_NE(http_get(serve.port(), "/healthz").body.find("devices: GMI exited with code 3: Error: driver not loaded"),
              std::string::npos);
    // After three intervals without success the GPU value series go; identity and
    // the collect families stay and say why.
    ASSERT_TRUE(wait_for([&] {
        return http_get(serve.port(), "/metrics").body.find("musatop_gpu_memory_used_bytes{") == std::string::npos;
    }));
    const std::string metrics = http_get(serve.port(), "/metrics").body;
    EXPECT_TRUE(has_line(metrics, "musatop_collect_success{source=\"devices\"} 0"));
    EXPECT_TRUE(has_line(metrics, "musatop_collect_timestamp_seconds{source=\"devices\"} "));
    EXPECT_TRUE(has_line(metrics, "musatop_gpu_info{"));
    EXPECT_FALSE(has_line(metrics, "musatop_collect_errors_total{source=\"devices\"} 0"));
    EXPECT_EQ(serve.stop(SIGTERM), 0) << serve.log();
}

TEST(Serve, HostileProcessNamesAreEscapedInLabels) {
    Scenario scenario;
    reference(scenario);
    scenario.set("summary.out", gmi_process_table({{0, 4000001, "evil\"na\\me\x1b]0;pwn\x07", 10}}));
    ServeProcess serve(scenario, {"--interval", "0.2", "--process-metrics=command"});
    ASSERT_TRUE(serve.listening()) << serve.log();
    ASSERT_TRUE(wait_for(
        [&] { return http_get(serve.port(), "/metrics").body.find("musatop_process_info{") != std::string::npos; }));
    const std::string metrics = http_get(serve.port(), "/metrics").body;
    EXPECT_NE(metrics.find("command=\"evil\\\"na\\\\me ]0;pwn \"} 1"), std::string::npos) << metrics;
    EXPECT_EQ(metrics.find('\x1b'), std::string::npos);
    EXPECT_EQ(metrics.find('\x07'), std::string::npos);
    EXPECT_EQ(serve.stop(SIGTERM), 0) << serve.log();
}

TEST(Serve, PortInUseIsAOneLineError) {
    Scenario scenario;
    reference(scenario);
    ServeProcess first(scenario, {"--demo"});
    ASSERT_TRUE(first.listening()) << first.log();
    const auto second = scenario.run({"serve", "--demo", "--listen", "127.0.0.1:" + std::to_string(first.port())}, 5s);
    EXPECT_EQ(second.exit_code, 1);
    EXPECT_EQ(second.err, "musatop serve: cannot listen on 127.0.0.1:" + std::to_string(first.port()) +
                              ": Address already in use\n");
    EXPECT_EQ(first.stop(SIGINT), 0);
}

TEST(Serve, BadSetUpIsAUsageError) {
    Scenario scenario;
    const auto bad_listen = scenario.run({"serve", "--listen", "localhost"});
    EXPECT_EQ(bad_listen.exit_code, 2);
    EXPECT_NE(bad_listen.err.find("--listen"), std::string::npos);
    scenario.set("web.yml", "basic_auth_users:\n  bob: plain\n");
    const auto bad_config = scenario.run({"serve", "--web-config-file", (scenario.dir() / "web.yml").string()});
    EXPECT_EQ(bad_config.exit_code, 2);
    EXPECT_NE(bad_config.err.find("web.yml:2:8: the password of bob must be a bcrypt hash"), std::string::npos)
        << bad_config.err;
    EXPECT_EQ(scenario.run({"serve", "--process-metrics=everything"}).exit_code, 2);
    EXPECT_EQ(scenario.run({"serve", "--json"}).exit_code, 2);
    EXPECT_EQ(scenario.calls("query"), 0);  // none of them ran GMI
}

TEST(Serve, SigtermDuringAHungGmiCallStopsWithinASecond) {
    Scenario scenario;
    reference(scenario);
    scenario.set("query.hang", "");
    ServeProcess serve(scenario, {"--timeout", "30"});
    ASSERT_TRUE(serve.listening()) << serve.log();
    ASSERT_TRUE(wait_for([&] { return scenario.calls("query") == 1; }));
    EXPECT_EQ(http_get(serve.port(), "/healthz").status, 503);  // answers while the round hangs
    const auto started = std::chrono::steady_clock::now();
    const int status = serve.stop(SIGTERM, 5s);
    EXPECT_LT(std::chrono::steady_clock::now() - started, 1s);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
    // The hung fake and its child are gone.
    const std::string calls = read_text(scenario.dir() / "calls.log");
    for (std::size_t at = calls.find("hang-child "); at != std::string::npos; at = calls.find("hang-child ", at + 1))
        EXPECT_TRUE(wait_until_dead(std::stoi(calls.substr(at + 11)))) << calls;
}

TEST(Serve, EveryMetricTheDocsAndDashboardNameIsExported) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    // Every reading the health issue added, and a process on GPU 0 of that query.
    scenario.set_fixture("query.out", "gmi_query_health.json");
    scenario.set_fixture("summary.out", "gmi_x10000_process.txt");
    // ...and the driver's files for GPU 0, with an event and the process's proc_util row.
    const auto root = scenario.dir() / "driver-root";
    FakeDriverTree tree(root);
    tree.add_gpu("gpu00", 0, "0000:2a:00.0");
    tree.write("gpu00", "status", kFieldStatusUnderLoad);
    tree.write("gpu00", "event_report", gen2_record());
    tree.write("gpu00", "proc_util", kProcUtilHeader + proc_util_row(12345, 12345, 45, 45, "gpu_smoke"));
    ::setenv("MUSATOP_DRIVER_ROOT", root.c_str(), 1);
    ServeProcess serve(scenario, {"--interval", "0.2", "--process-metrics=command", "--process-util"});
    ::unsetenv("MUSATOP_DRIVER_ROOT");
    ASSERT_TRUE(serve.listening()) << serve.log();
    // Host CPU needs two rounds (a difference of /proc/stat): wait for a round with it.
    std::string metrics;
    ASSERT_TRUE(wait_for([&] {
        metrics = http_get(serve.port(), "/metrics").body;
        return metrics.find("\nmusatop_host_cpu_utilization_ratio ") != std::string::npos;
    }));
    for (const char* document : {"docs/serve.md", "docs/grafana/musatop.json"}) {
        const std::string text = read_text(std::string(MUSATOP_SOURCE_DIR) + "/" + document);
        int named = 0;
        for (std::size_t at = text.find("musatop_"); at != std::string::npos; at = text.find("musatop_", at + 1)) {
            std::size_t end = at;
            while (end < text.size() && (std::islower(static_cast<unsigned char>(text[end])) || text[end] == '_'))
                ++end;
            const std::string name = text.substr(at, end - at);
            if (name.back() == '_') continue;  // a prefix in prose ("musatop_gpu_*")
            ++named;
            const bool exported = metrics.find("\n" + name + "{") != std::string::npos ||
                                  metrics.find("\n" + name + " ") != std::string::npos;  // a series without labels
            EXPECT_TRUE(exported) << document << " names " << name;
        }
        EXPECT_GT(named, 10) << document;
    }
    EXPECT_EQ(serve.stop(SIGTERM), 0) << serve.log();
}

TEST(Serve, ListensOnEveryAddressWhenAskedTo) {
    Scenario scenario;
    const int port = free_port();
    const auto shown = "[::]:" + std::to_string(port) + " (all addresses)";
    ServeProcess serve(scenario, {"--demo", "--listen", ":" + std::to_string(port)}, port);
    // --listen given twice: the last one (":PORT") wins, as for every flag.
    ASSERT_TRUE(serve.listening()) << serve.log();
    EXPECT_NE(serve.log().find("listening on http://" + shown), std::string::npos) << serve.log();
    ASSERT_TRUE(wait_for([&] { return http_get(port, "/healthz").status == 200; }));
    EXPECT_EQ(serve.stop(SIGTERM), 0) << serve.log();
}

TEST(Serve, SnapshotETagAnswers304AndRangeIsIgnored) {
    Scenario scenario;
    reference(scenario);
    ServeProcess serve(scenario, {"--interval", "60"});  // one frame for the whole test
    ASSERT_TRUE(serve.listening()) << serve.log();
    ASSERT_TRUE(wait_for([&] { return http_get(serve.port(), "/healthz").status == 200; }));
    const auto first = http_get(serve.port(), "/api/v1/snapshot");
    ASSERT_EQ(first.status, 200);
    ASSERT_EQ(first.headers.count("etag"), 1u);
    const std::string etag = first.headers.at("etag");
    EXPECT_EQ(etag.front(), '"');
    const auto again = http_get(serve.port(), "/api/v1/snapshot", "If-None-Match: \"other\", " + etag + "\r\n");
    EXPECT_EQ(again.status, 304);
    EXPECT_TRUE(again.body.empty());
    EXPECT_EQ(again.headers.at("etag"), etag);
    EXPECT_EQ(again.headers.count("content-length"), 0u);
    EXPECT_EQ(http_get(serve.port(), "/api/v1/snapshot", "If-None-Match: \"stale\"\r\n").status, 200);
    EXPECT_EQ(http_get(serve.port(), "/metrics").headers.count("etag"), 0u);  // a scrape is always whole
    // Overlapping ranges once made the agent build a reply many times the document:
    // Range is ignored, as node_exporter does.
    std::string ranges = "Range: bytes=0-";
    for (int i = 0; i < 500; ++i) ranges += ",0-";
    const auto ranged = http_get(serve.port(), "/api/v1/snapshot", ranges + "\r\n");
    EXPECT_EQ(ranged.status, 200);
    EXPECT_EQ(ranged.body, first.body);
    EXPECT_EQ(serve.stop(SIGTERM), 0) << serve.log();
}

// An agent whose GMI fails says so in its log (the journal under systemd) once, at
// the change, and says when it recovers; it used to print only its start line.
TEST(Serve, SourceFailuresAndRecoveriesAreLoggedOncePerChange) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    scenario.set("query.rc", "3");
    scenario.set("summary.rc", "3");
    ServeProcess serve(scenario, {"--interval", "0.1"});
    ASSERT_TRUE(serve.listening()) << serve.log();
    ASSERT_TRUE(wait_for([&] { return serve.log().find("musatop serve: processes fail") != std::string::npos; }))
        << serve.log();
    EXPECT_NE(serve.log().find("musatop serve: devices fail from the first round: GMI exited with code 3"),
              std::string::npos)
        << serve.log();
    ASSERT_TRUE(wait_for([&] { return scenario.calls("query") >= 5; }));  // failing rounds say nothing more
    std::filesystem::remove(scenario.dir() / "query.rc");
    std::filesystem::remove(scenario.dir() / "summary.rc");
    ASSERT_TRUE(wait_for([&] { return serve.log().find("musatop serve: processes recovered") != std::string::npos; }))
        << serve.log();
    const std::string log = serve.log();
    EXPECT_NE(log.find("musatop serve: devices recovered"), std::string::npos);
    std::size_t fails = 0;
    for (std::size_t at = log.find(" fail"); at != std::string::npos; at = log.find(" fail", at + 1)) ++fails;
    EXPECT_EQ(fails, 2u) << log;  // one line per source and change
    EXPECT_EQ(serve.stop(SIGTERM), 0) << serve.log();
}
