#include "certificates.hpp"

#include <crypt.h>

#include "child_process.hpp"

namespace musatop::testing {

bool make_certificate(const Scenario& scenario) {
    const auto result =
        run_child({"/usr/bin/openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                   "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout",
                   (scenario.dir() / "tls.key").string(), "-out", (scenario.dir() / "tls.crt").string()},
                  {}, std::chrono::seconds(30));
    return result.exit_code == 0;
}

bool protect(const Scenario& scenario) {
    if (!make_certificate(scenario)) return false;
    const std::string hash = ::crypt("s3cret", ::crypt_gensalt("$2y$", 5, nullptr, 0));
    scenario.set("web.yml",
                 "tls_server_config:\n  cert_file: tls.crt\n  key_file: tls.key\n"
                 "basic_auth_users:\n  prometheus: " +
                     hash + "\n");
    return true;
}

}  // namespace musatop::testing
