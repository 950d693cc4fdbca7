// The web config is read again when it changes and on SIGHUP: a rotated password
// and a renewed certificate take effect without a restart, a broken file keeps
// the one in force and says why.
#include <gtest/gtest.h>
#include <crypt.h>
#include <signal.h>

#include <filesystem>

#include "musatop/net/base64.hpp"

#include "certificates.hpp"
#include "serve_process.hpp"
#include "test_support.hpp"

using namespace musatop::testing;
using namespace std::chrono_literals;

namespace {

std::string users_file(const std::string& password) {
    return "basic_auth_users:\n  prometheus: " +
           std::string(::crypt(password.c_str(), ::crypt_gensalt("$2y$", 5, nullptr, 0))) + "\n";
}

std::string authorization(const std::string& password) {
    return "Authorization: " + musatop::net::basic_authorization("prometheus", password) + "\r\n";
}

}  // namespace

TEST(ServeReload, AnEditedHashTakesEffectWithinASecondAndABrokenFileKeepsTheOld) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    scenario.set("web.yml", users_file("first"));
    ServeProcess serve(scenario, {"--interval", "0.2", "--web-config-file", (scenario.dir() / "web.yml").string()});
    ASSERT_TRUE(serve.listening()) << serve.log();
    const auto status = [&](const std::string& password) {
        return http_get(serve.port(), "/metrics", authorization(password)).status;
    };
    ASSERT_TRUE(wait_for([&] { return status("first") == 200; }));
    scenario.set("web.yml", users_file("second"));  // rewritten in place
    const auto edited = std::chrono::steady_clock::now();
    EXPECT_TRUE(wait_for([&] { return status("second") == 200 && status("first") == 401; }, 1s)) << serve.log();
    std::cout
        << "reload figure: the new hash took effect after "
        << std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - edited).count()
        << " ms\n";
    EXPECT_NE(serve.log().find("reloaded the web config"), std::string::npos) << serve.log();

    scenario.set("web.yml", "basic_auth_users: [\n");  // broken: the last good one stays
    ASSERT_TRUE(wait_for([&] { return serve.log().find("cannot be used") != std::string::npos; })) << serve.log();
    EXPECT_NE(serve.log().find("the previous one stays in force"), std::string::npos);
    EXPECT_EQ(status("second"), 200);
    EXPECT_EQ(status("first"), 401);

    // SIGHUP reads the file again and never stops the agent (Restart=on-failure would not bring it back).
    scenario.set("web.yml", users_file("third"));
    ASSERT_EQ(::kill(serve.pid(), SIGHUP), 0);
    EXPECT_TRUE(wait_for([&] { return status("third") == 200; }, 2s)) << serve.log();
    EXPECT_EQ(status("second"), 401);
    EXPECT_EQ(serve.stop(SIGTERM), 0) << serve.log();
}

TEST(ServeReload, ARenewedCertificateServesTheNextConnection) {
    Scenario scenario;
    scenario.use_reference_fixtures();
    ASSERT_TRUE(protect(scenario)) << "openssl req failed";
    ServeProcess serve(scenario, {"--interval", "0.2", "--web-config-file", (scenario.dir() / "web.yml").string()});
    ASSERT_TRUE(serve.listening()) << serve.log();
    const std::string old_ca = (scenario.dir() / "old.crt").string();
    std::filesystem::copy_file(scenario.dir() / "tls.crt", old_ca);
    ASSERT_TRUE(wait_for([&] { return https_get(serve.port(), "/healthz", old_ca).status == 200; }));
    ASSERT_TRUE(make_certificate(scenario));  // renewed in place, as certbot does
    const std::string new_ca = (scenario.dir() / "tls.crt").string();
    EXPECT_TRUE(wait_for([&] { return https_get(serve.port(), "/healthz", new_ca).status == 200; }, 2s)) << serve.log();
    EXPECT_FALSE(https_get(serve.port(), "/healthz", old_ca).ok);
    // Turning TLS off is refused: the clients' URLs would change under them.
    scenario.set("web.yml", users_file("s3cret"));
    ASSERT_TRUE(wait_for([&] { return serve.log().find("cannot be turned off") != std::string::npos; })) << serve.log();
    EXPECT_EQ(https_get(serve.port(), "/healthz", new_ca).status, 200);
    EXPECT_EQ(serve.stop(SIGTERM), 0) << serve.log();
}
