// The pure parts of `musatop serve`'s set-up: --listen, the web config, basic auth,
// and the request-head rules of the connection handler.
#include <gtest/gtest.h>
#include <vector>
#include <thread>
#include <atomic>

#include <crypt.h>

#include "musatop/serve/basic_auth.hpp"
#include "musatop/net/http_request.hpp"
#include "musatop/serve/listen_address.hpp"
#include "musatop/serve/web_config.hpp"

using namespace musatop::serve;
using namespace musatop::net;

TEST(ListenAddress, HostPortIpv6AndAllAddresses) {
    auto a = parse_listen_address("127.0.0.1:9499");
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(a->host, "127.0.0.1");
    EXPECT_EQ(a->port, 9499);
    a = parse_listen_address("[::1]:8080");
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(a->host, "::1");
    EXPECT_EQ(a->display(), "[::1]:8080");
    a = parse_listen_address(":9499");
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(a->host, "");
    EXPECT_EQ(a->display(), "[::]:9499 (all addresses)");
    for (const char* bad : {"9499", "host:", "host:0", "host:65536", "::1:80", "[::1]80", "[]:80", "h:12x"})
        EXPECT_FALSE(parse_listen_address(bad).ok()) << bad;
    EXPECT_NE(parse_listen_address("::1:80").error().find("brackets"), std::string::npos);
}

TEST(WebConfig, TlsAndUsers) {
    const std::string hash = "$2y$10$" + std::string(53, 'a');
    const auto config = parse_web_config(
        "tls_server_config:\n  cert_file: tls.crt\n  key_file: /etc/k.key\nbasic_auth_users:\n  prom: " + hash + "\n",
        "web.yml", "/etc/musatop");
    ASSERT_TRUE(config.ok()) << config.error();
    ASSERT_TRUE(config->tls);
    EXPECT_EQ(config->tls->cert_file, "/etc/musatop/tls.crt");  // relative to the config file
    EXPECT_EQ(config->tls->key_file, "/etc/k.key");
    EXPECT_EQ(config->users.at("prom"), hash);
    EXPECT_TRUE(parse_web_config("", "web.yml", "").ok());  // empty: neither part
}

TEST(WebConfig, ErrorsNameFileLineAndProblem) {
    const auto unknown =
        parse_web_config("tls_server_config:\n  cert_file: a\n  key_file: b\nhttp2: true\n", "w.yml", "");
    ASSERT_FALSE(unknown.ok());
    EXPECT_EQ(unknown.error(), "w.yml:4:1: unknown key http2 (known: tls_server_config, basic_auth_users)");
    const auto half = parse_web_config("tls_server_config:\n  cert_file: a\n", "w.yml", "");
    ASSERT_FALSE(half.ok());
    EXPECT_NE(half.error().find("needs both cert_file and key_file"), std::string::npos);
    const auto plain = parse_web_config("basic_auth_users:\n  bob: secret\n", "w.yml", "");
    ASSERT_FALSE(plain.ok());
    EXPECT_NE(plain.error().find("w.yml:2:8: the password of bob must be a bcrypt hash"), std::string::npos)
        << plain.error();
    const auto broken = parse_web_config("basic_auth_users: [\n", "w.yml", "");
    ASSERT_FALSE(broken.ok());
    EXPECT_NE(broken.error().find("w.yml:"), std::string::npos);
    EXPECT_NE(broken.error().find("invalid YAML"), std::string::npos);
    EXPECT_FALSE(parse_web_config("tls_server_config:\n  client_ca_file: x\n", "w.yml", "").ok());
    EXPECT_FALSE(load_web_config("/nonexistent/web.yml").ok());
}

TEST(BasicAuth, Base64AndHeaderParsing) {
    EXPECT_EQ(decode_base64("dXNlcjpwYXNz"), "user:pass");
    EXPECT_EQ(decode_base64("YQ=="), "a");
    EXPECT_EQ(decode_base64("YWI="), "ab");
    EXPECT_FALSE(decode_base64("YQ="));
    EXPECT_FALSE(decode_base64("Y=Q="));
    EXPECT_FALSE(decode_base64("YQ!="));
    const auto c = parse_basic_authorization("Basic dXNlcjpwYTpzcw==");  // user:pa:ss
    ASSERT_TRUE(c);
    EXPECT_EQ(c->user, "user");
    EXPECT_EQ(c->password, "pa:ss");
    EXPECT_FALSE(parse_basic_authorization("Bearer dXNlcjpwYXNz"));
    EXPECT_FALSE(parse_basic_authorization("Basic dXNlcnBhc3M="));  // no colon
    EXPECT_TRUE(equal_in_constant_time("abc", "abc"));
    EXPECT_FALSE(equal_in_constant_time("abc", "abd"));
    EXPECT_FALSE(equal_in_constant_time("abc", "ab"));
}

TEST(BasicAuth, BcryptHashesFromLibcrypt) {
    // A real bcrypt hash, as htpasswd -B makes them ($2y$, cost 5 to keep the test quick).
    const char* salt = ::crypt_gensalt("$2y$", 5, nullptr, 0);
    ASSERT_NE(salt, nullptr);
    const std::string hash = ::crypt("s3cret", salt);
    ASSERT_EQ(hash.substr(0, 4), "$2y$");
    BasicAuth auth({{"prom", hash}});
    EXPECT_TRUE(auth.enabled());
    EXPECT_TRUE(auth.allows("Basic cHJvbTpzM2NyZXQ="));   // prom:s3cret
    EXPECT_TRUE(auth.allows("Basic cHJvbTpzM2NyZXQ="));   // the remembered check
    EXPECT_FALSE(auth.allows("Basic cHJvbTpzM2NyZXU="));  // prom:s3creu
    EXPECT_FALSE(auth.allows("Basic Ym9iOnMzY3JldA=="));  // bob:s3cret
    EXPECT_FALSE(auth.allows(""));
    EXPECT_FALSE(BasicAuth({}).enabled());
}

// What failed attempts can cost: a repeated guess is answered from memory, and
// however many clients guess at once only one check runs at a time.
TEST(BasicAuth, FailedAttemptsAreRememberedAndCheckedOneAtATime) {
    std::atomic<int> calls{0}, running{0}, most_at_once{0};
    const auto verifier = [&](const std::string& password, const std::string&) {
        ++calls;
        const int now = ++running;
        for (int seen = most_at_once; now > seen && !most_at_once.compare_exchange_weak(seen, now);) {}
        std::this_thread::sleep_for(std::chrono::milliseconds(2));  // long enough for the threads to overlap
        --running;
        return password == "s3cret";
    };
    BasicAuth auth({{"prom", "hash"}}, verifier, BasicAuth::Costs{std::chrono::milliseconds(0), 4});
    const auto header = [](const std::string& pair) { return "Basic " + musatop::net::encode_base64(pair); };
    for (int i = 0; i < 5; ++i) EXPECT_FALSE(auth.allows(header("prom:guess")));
    EXPECT_EQ(calls, 1);  // the same wrong pair is checked once
    EXPECT_FALSE(auth.allows(header("mallory:guess")));
    EXPECT_FALSE(auth.allows(header("mallory:guess")));
    EXPECT_EQ(calls, 2);  // an unknown user costs one check, then none
    std::vector<std::thread> guessers;
    for (int t = 0; t < 8; ++t)
        guessers.emplace_back([&, t] {
            for (int i = 0; i < 5; ++i) EXPECT_FALSE(auth.allows(header("prom:guess" + std::to_string(t * 10 + i))));
        });
    for (auto& g : guessers) g.join();
    EXPECT_EQ(most_at_once, 1);
    EXPECT_EQ(calls, 42);
    EXPECT_TRUE(auth.allows(header("prom:s3cret")));
    EXPECT_TRUE(auth.allows(header("prom:s3cret")));
    EXPECT_EQ(calls, 43);                             // the right password is remembered too
    EXPECT_FALSE(auth.allows(header("prom:guess")));  // forgotten: only the last 4 failures are kept
    EXPECT_EQ(calls, 44);
}

TEST(ConnectionRules, HeadEndAndBodies) {
    EXPECT_EQ(find_head_end("GET / HTTP/1.1\r\nHost: x\r\n\r\nrest"), 27u);
    EXPECT_EQ(find_head_end("GET / HTTP/1.0\n\n"), 16u);
    // A blank line after a LF-only line, and a LF-only blank line after CR LF.
    EXPECT_EQ(find_head_end("GET / HTTP/1.1\nHost: x\n\r\nrest"), 25u);
    EXPECT_EQ(find_head_end("GET / HTTP/1.1\r\nHost: x\r\n\nrest"), 26u);
    EXPECT_EQ(find_head_end("GET / HTTP/1.1\r\nHost: x\r\n\r"), std::string::npos);
    EXPECT_EQ(find_head_end("GET / HTTP/1.1\r\nHost: x\r\n"), std::string::npos);
    EXPECT_FALSE(head_has_body("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
    EXPECT_FALSE(head_has_body("GET / HTTP/1.1\r\nContent-Length: 0\r\n\r\n"));
    EXPECT_TRUE(head_has_body("POST / HTTP/1.1\r\ncontent-length: 5\r\n\r\n"));
    EXPECT_TRUE(head_has_body("GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"));
    EXPECT_TRUE(head_has_body("GET / HTTP/1.1\r\nContent-Length: x\r\n\r\n"));
}
