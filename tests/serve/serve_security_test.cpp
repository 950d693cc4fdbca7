// `musatop serve` against clients that misbehave, and behind TLS and basic auth.
#include <gtest/gtest.h>
#include <crypt.h>
#include <signal.h>

#include <memory>
#include <thread>

#include "musatop/net/base64.hpp"

#include "child_process.hpp"
#include <nlohmann/json.hpp>

#include "certificates.hpp"
#include "serve_process.hpp"

using namespace musatop::testing;
using namespace std::chrono_literals;

TEST(ServeLimits, ASlowClientIsCutAndNeverBlocksOthers) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    ServeProcess serve(scenario, {"--interval", "0.2"});
    ASSERT_TRUE(serve.listening()) << serve.log();
    RawConnection slow(serve.port());
    ASSERT_TRUE(slow.send("GET /metr"));  // and then nothing more: a slowloris
    const auto started = std::chrono::steady_clock::now();
    // Others are served at once while it hangs.
    for (int i = 0; i < 5; ++i) {
        const auto t = std::chrono::steady_clock::now();
        EXPECT_EQ(http_get(serve.port(), "/").status, 200);
        EXPECT_LT(std::chrono::steady_clock::now() - t, 1s);
    }
    bool closed = false;
    const std::string answer = slow.read_until_closed(20s, closed);
    const auto waited = std::chrono::steady_clock::now() - started;
    EXPECT_TRUE(closed);
    EXPECT_TRUE(answer.empty());
    EXPECT_GE(waited, 9s);   // the head gets 10 s from the accept...
    EXPECT_LT(waited, 13s);  // ...and not much more
    EXPECT_EQ(serve.stop(SIGTERM), 0) << serve.log();
}

// Clients that keep a connection open between rare requests must not hold every
// slot: at the cap the connection idle the longest is closed for the new one.
TEST(ServeLimits, IdleKeepAliveConnectionsNeverStarveAScrape) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    ServeProcess serve(scenario, {"--interval", "0.2"}, free_port(), 128);  // a low limit: a cap in reach
    ASSERT_TRUE(serve.listening()) << serve.log();
    const int cap = connection_cap(serve.log());
    ASSERT_GT(cap, 8) << serve.log();
    ASSERT_LT(cap, 128) << serve.log();
    ASSERT_TRUE(wait_for([&] { return http_get(serve.port(), "/healthz").status == 200; }));  // the first round
    const std::string request = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
    std::vector<std::unique_ptr<RawConnection>> idle;
    for (int i = 0; i < cap; ++i) {
        idle.push_back(std::make_unique<RawConnection>(serve.port()));
        ASSERT_TRUE(idle.back()->send(request));
        bool closed = false;
        ASSERT_NE(idle.back()->read_until_closed(5s, closed).find("HTTP/1.1 200"), std::string::npos);
        ASSERT_FALSE(closed);
    }
    // Three scrapers that keep their connections too: each needs a slot of its own.
    std::vector<std::unique_ptr<RawConnection>> scrapers;
    for (int i = 0; i < 3; ++i) {
        scrapers.push_back(std::make_unique<RawConnection>(serve.port()));
        ASSERT_TRUE(scrapers.back()->send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"));
        bool closed = false;
        EXPECT_NE(scrapers.back()->read_until_closed(5s, closed).find("HTTP/1.1 200"), std::string::npos) << i;
    }
    for (int i = 0; i < 3; ++i) {  // the three idle the longest made room
        bool closed = false;
        EXPECT_TRUE(idle[i]->read_until_closed(5s, closed).empty());
        EXPECT_TRUE(closed) << "connection " << i;
    }
    bool closed = false;  // the youngest is still served on its own connection
    ASSERT_TRUE(idle.back()->send(request));
    EXPECT_NE(idle.back()->read_until_closed(5s, closed).find("HTTP/1.1 200"), std::string::npos);
    EXPECT_FALSE(closed);
    EXPECT_EQ(serve.stop(SIGTERM), 0) << serve.log();
}

TEST(ServeSecurity, TlsAndBasicAuthOnEveryEndpointButHealthz) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    ASSERT_TRUE(protect(scenario)) << "openssl req failed";
    ServeProcess serve(scenario, {"--interval", "0.2", "--web-config-file", (scenario.dir() / "web.yml").string()});
    ASSERT_TRUE(serve.listening()) << serve.log();
    EXPECT_NE(serve.log().find("listening on https://"), std::string::npos);
    EXPECT_NE(serve.log().find("basic auth"), std::string::npos);

    const std::string ca = (scenario.dir() / "tls.crt").string();
    ASSERT_TRUE(wait_for([&] { return https_get(serve.port(), "/healthz", ca).status == 200; }));
    const auto denied = https_get(serve.port(), "/metrics", ca);
    EXPECT_EQ(denied.status, 401);
    EXPECT_EQ(denied.headers.at("www-authenticate"), "Basic realm=\"musatop\"");
    const auto basic = [](const std::string& user_password) {
        return "Authorization: " +
               musatop::net::basic_authorization(user_password.substr(0, user_password.find(':')),
                                                 user_password.substr(user_password.find(':') + 1)) +
               "\r\n";
    };
    EXPECT_EQ(https_get(serve.port(), "/metrics", ca, basic("prometheus:wrong")).status, 401);
    // RFC 7617: the scheme is case-insensitive; a NUL in the password is no password.
    EXPECT_EQ(https_get(serve.port(), "/metrics", ca,
                        "Authorization: basic " + musatop::net::encode_base64("prometheus:s3cret") + "\r\n")
                  .status,
              200);
    EXPECT_EQ(https_get(serve.port(), "/metrics", ca,
                        "Authorization: Basic " +
                            musatop::net::encode_base64(std::string("prometheus:s3cret\0junk", 23)) + "\r\n")
                  .status,
              401);
    const auto allowed = https_get(serve.port(), "/metrics", ca, basic("prometheus:s3cret"));
    EXPECT_EQ(allowed.status, 200);
    EXPECT_NE(allowed.body.find("musatop_gpu_info{"), std::string::npos);
    EXPECT_EQ(https_get(serve.port(), "/api/v1/snapshot", ca, basic("prometheus:s3cret")).status, 200);
    // Plain HTTP to the TLS port is told what went wrong, as exporter-toolkit does.
    const auto plain = http_get(serve.port(), "/healthz");
    EXPECT_EQ(plain.status, 400);
    EXPECT_EQ(plain.body, "Client sent an HTTP request to an HTTPS server.\n");
    EXPECT_EQ(serve.stop(SIGTERM), 0) << serve.log();
}

TEST(ServeSecurity, AnUnusableCertificateIsAClearError) {
    Scenario scenario;
    scenario.set("tls.crt", "not a certificate\n");
    scenario.set("tls.key", "not a key\n");
    scenario.set("web.yml", "tls_server_config:\n  cert_file: tls.crt\n  key_file: tls.key\n");
    const auto run = scenario.run({"serve", "--demo", "--listen", "127.0.0.1:" + std::to_string(free_port()),
                                   "--web-config-file", (scenario.dir() / "web.yml").string()},
                                  10s);
    EXPECT_EQ(run.exit_code, 2);
    EXPECT_NE(run.err.find("cannot use the TLS certificate"), std::string::npos) << run.err;
}

TEST(ServeLimits, AnIdleKeepAliveConnectionIsClosedAfter30Seconds) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    ServeProcess serve(scenario, {"--interval", "0.5"});
    ASSERT_TRUE(serve.listening()) << serve.log();
    RawConnection client(serve.port());
    ASSERT_TRUE(client.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"));  // keep-alive by default
    bool closed = false;
    const std::string reply = client.read_until_closed(5s, closed);
    ASSERT_NE(reply.find("HTTP/1.1 "), std::string::npos);
    ASSERT_FALSE(closed);  // still open after the answer
    const auto idle_from = std::chrono::steady_clock::now();
    const std::string rest = client.read_until_closed(45s, closed);
    const auto idle = std::chrono::steady_clock::now() - idle_from;
    EXPECT_TRUE(closed);
    EXPECT_TRUE(rest.empty());
    EXPECT_GE(idle, 29s);
    EXPECT_LT(idle, 33s);
    EXPECT_EQ(serve.stop(SIGTERM), 0) << serve.log();
}

TEST(ServeSecurity, TheClusterViewReachesAProtectedAgent) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    ASSERT_TRUE(protect(scenario)) << "openssl req failed";
    ServeProcess serve(scenario, {"--interval", "0.2", "--web-config-file", (scenario.dir() / "web.yml").string()});
    ASSERT_TRUE(serve.listening()) << serve.log();
    scenario.set_secret("good.pass", "s3cret\n");
    scenario.set_secret("bad.pass", "guess\n");
    const std::string node = "https://127.0.0.1:" + std::to_string(serve.port());
    const auto view = [&](const std::vector<std::string>& extra) {
        std::vector<std::string> args = {"--nodes", node, "--json"};
        args.insert(args.end(), extra.begin(), extra.end());
        return nlohmann::json::parse(scenario.run(args).out)["nodes"][0];
    };
    const std::string ca = (scenario.dir() / "tls.crt").string();
    nlohmann::json ok;
    ASSERT_TRUE(wait_for([&] {
        ok = view({"--node-user", "prometheus", "--node-password-file", (scenario.dir() / "good.pass").string(),
                   "--node-ca", ca});
        return ok["state"] == "ok";
    })) << ok.dump();
    EXPECT_EQ(ok["address"], "https://127.0.0.1:" + std::to_string(serve.port()));
    const auto wrong = view(
        {"--node-user", "prometheus", "--node-password-file", (scenario.dir() / "bad.pass").string(), "--node-ca", ca});
    EXPECT_EQ(wrong["state"], "error");
    EXPECT_EQ(wrong["error"], "HTTP status 401");
    const auto untrusted =
        view({"--node-user", "prometheus", "--node-password-file", (scenario.dir() / "good.pass").string()});
    EXPECT_EQ(untrusted["state"], "unreachable");
    // Named http:// though it speaks TLS: said so, with the name to use.
    const auto plain = nlohmann::json::parse(
        scenario.run({"--nodes", "127.0.0.1:" + std::to_string(serve.port()), "--json"}).out)["nodes"][0];
    EXPECT_EQ(plain["error"],
              "it answered as an https:// server: name it https://127.0.0.1:" + std::to_string(serve.port()));
    EXPECT_NE(untrusted["error"].get<std::string>().find("certificate"), std::string::npos) << untrusted.dump();
    // The password never appears on the command line: only a file can hold it.
    EXPECT_EQ(scenario.run({"--nodes", node, "--node-password", "s3cret"}).exit_code, 2);
    // Nodes are reached directly, whatever proxy the login node has for the outside.
    const auto proxied =
        scenario.run({"--nodes", node, "--json", "--node-user", "prometheus", "--node-password-file",
                      (scenario.dir() / "good.pass").string(), "--node-ca", ca},
                     std::chrono::seconds(20), {"https_proxy=http://127.0.0.1:1", "HTTPS_PROXY=http://127.0.0.1:1"});
    EXPECT_EQ(nlohmann::json::parse(proxied.out)["nodes"][0]["state"], "ok") << proxied.out;
}

// Basic auth without TLS goes through the cluster view's own HTTP client.
TEST(ServeSecurity, TheClusterViewReachesAnAgentWithBasicAuthOverPlainHttp) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    const std::string hash = ::crypt("s3cret", ::crypt_gensalt("$2y$", 5, nullptr, 0));
    scenario.set("web.yml", "basic_auth_users:\n  prometheus: " + hash + "\n");
    ServeProcess serve(scenario, {"--interval", "0.2", "--web-config-file", (scenario.dir() / "web.yml").string()});
    ASSERT_TRUE(serve.listening()) << serve.log();
    scenario.set_secret("good.pass", "s3cret\n");
    scenario.set_secret("bad.pass", "guess\n");
    const std::string node = "127.0.0.1:" + std::to_string(serve.port());
    const std::vector<std::string> dead_proxy = {"http_proxy=http://127.0.0.1:1", "HTTP_PROXY=http://127.0.0.1:1"};
    const auto state = [&](const std::string& password_file) {
        const auto run = scenario.run({"--nodes", node, "--json", "--node-user", "prometheus", "--node-password-file",
                                       (scenario.dir() / password_file).string()},
                                      std::chrono::seconds(20), dead_proxy);
        return nlohmann::json::parse(run.out)["nodes"][0];
    };
    nlohmann::json ok;
    ASSERT_TRUE(wait_for([&] { return (ok = state("good.pass"))["state"] == "ok"; })) << ok.dump();
    EXPECT_EQ(ok["snapshot"]["schema_version"], 1);
    const auto wrong = state("bad.pass");
    EXPECT_EQ(wrong["state"], "error");
    EXPECT_EQ(wrong["error"], "HTTP status 401");
}
