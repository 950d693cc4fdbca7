// TLS through OpenSSL for both ends: the agent's certificate and key, and the
// client's trust (a CA file, else the system's store, SSL_CERT_FILE and
// SSL_CERT_DIR honoured) with the server's name verified.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "musatop/util/result.hpp"

using SSL_CTX = struct ssl_ctx_st;
using SSL = struct ssl_st;

namespace musatop::net {

class TlsContext {
public:
    // The agent's: an error names the file that cannot be used.
    static Result<std::shared_ptr<TlsContext>> server(const std::string& cert_file, const std::string& key_file);
    // A client's: `ca_file` replaces the system's store when given.
    static Result<std::shared_ptr<TlsContext>> client(const std::optional<std::string>& ca_file);
    ~TlsContext();
    TlsContext(const TlsContext&) = delete;
    TlsContext& operator=(const TlsContext&) = delete;

    // A new session on `fd` (not owned); for a client, set to verify `host`.
    SSL* session(int fd, const std::string& host = {}) const;

private:
    explicit TlsContext(SSL_CTX* context) : context_(context) {}
    SSL_CTX* context_;
};

// Where distributions keep their CA bundle: Debian, Ubuntu, Alpine; RHEL, Rocky,
// Kylin, openEuler (two places); SUSE; the BSD-style one some images carry.
inline constexpr const char* kCaBundles[] = {
    "/etc/ssl/certs/ca-certificates.crt",
    "/etc/pki/tls/certs/ca-bundle.crt",
    "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",
    "/etc/ssl/ca-bundle.pem",
    "/var/lib/ca-certificates/ca-bundle.pem",
    "/etc/ssl/cert.pem",
};

// The CA bundle to load when neither --node-ca/--prometheus-ca nor SSL_CERT_FILE /
// SSL_CERT_DIR says: none when OpenSSL's own default file exists (it is read
// anyway), else the first of kCaBundles under `root` ("" for /) that exists. A
// static binary carries the defaults of the distribution it was built on, which
// another distribution does not share.
std::optional<std::string> system_ca_bundle(const std::string& root, const char* openssl_default_file,
                                            const std::function<const char*(const char*)>& environment);

// Why the last TLS call failed, worded for a node's error column: "certificate
// verify failed: self-signed certificate", "the server's name does not match".
std::string tls_error_text(SSL* ssl, int result);

}  // namespace musatop::net
