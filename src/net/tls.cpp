#include "musatop/net/tls.hpp"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "musatop/net/endpoint.hpp"

namespace musatop::net {
namespace {

std::string openssl_error() {
    const unsigned long code = ERR_get_error();
    ERR_clear_error();
    if (code == 0) return "unknown TLS error";
    char text[256];
    ERR_error_string_n(code, text, sizeof text);
    // "error:0A000086:SSL routines::certificate verify failed": the reason alone.
    const char* reason = std::strrchr(text, ':');
    return reason ? reason + 1 : text;
}

}  // namespace

TlsContext::~TlsContext() { SSL_CTX_free(context_); }

Result<std::shared_ptr<TlsContext>> TlsContext::server(const std::string& cert_file, const std::string& key_file) {
    for (const auto* path : {&cert_file, &key_file})
        if (::access(path->c_str(), R_OK) != 0) return Error{"cannot read TLS file " + *path};
    SSL_CTX* context = SSL_CTX_new(TLS_server_method());
    if (!context) return Error{"cannot set up TLS: " + openssl_error()};
    std::shared_ptr<TlsContext> out(new TlsContext(context));
    SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
    SSL_CTX_set_mode(context, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    if (SSL_CTX_use_certificate_chain_file(context, cert_file.c_str()) != 1 ||
        SSL_CTX_use_PrivateKey_file(context, key_file.c_str(), SSL_FILETYPE_PEM) != 1 ||
        SSL_CTX_check_private_key(context) != 1) {
        ERR_clear_error();
        return Error{"cannot use the TLS certificate " + cert_file + " with the key " + key_file};
    }
    return out;
}

Result<std::shared_ptr<TlsContext>> TlsContext::client(const std::optional<std::string>& ca_file) {
    SSL_CTX* context = SSL_CTX_new(TLS_client_method());
    if (!context) return Error{"cannot set up TLS: " + openssl_error()};
    std::shared_ptr<TlsContext> out(new TlsContext(context));
    SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
    SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nullptr);
    SSL_CTX_set_mode(context, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    if (ca_file) {
        if (SSL_CTX_load_verify_locations(context, ca_file->c_str(), nullptr) != 1) {
            ERR_clear_error();
            return Error{"cannot read the CA certificates in " + *ca_file};
        }
    } else {
        SSL_CTX_set_default_verify_paths(context);  // reads SSL_CERT_FILE / SSL_CERT_DIR
        const auto bundle =
            system_ca_bundle("", X509_get_default_cert_file(), [](const char* name) { return std::getenv(name); });
        if (bundle) SSL_CTX_load_verify_locations(context, bundle->c_str(), nullptr);
        ERR_clear_error();
    }
    return out;
}

SSL* TlsContext::session(int fd, const std::string& host) const {
    SSL* ssl = SSL_new(context_);
    if (!ssl) return nullptr;
    SSL_set_fd(ssl, fd);
    if (!host.empty()) {
        X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
        if (is_ip_literal(host)) {
            X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str());
        } else {
            SSL_set_tlsext_host_name(ssl, host.c_str());
            X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
            X509_VERIFY_PARAM_set1_host(param, host.c_str(), 0);
        }
        SSL_set_connect_state(ssl);
    } else {
        SSL_set_accept_state(ssl);
    }
    return ssl;
}

std::optional<std::string> system_ca_bundle(const std::string& root, const char* openssl_default_file,
                                            const std::function<const char*(const char*)>& environment) {
    for (const char* name : {"SSL_CERT_FILE", "SSL_CERT_DIR"}) {
        const char* value = environment(name);
        if (value && *value) return std::nullopt;
    }
    if (openssl_default_file && ::access((root + openssl_default_file).c_str(), R_OK) == 0) return std::nullopt;
    for (const char* bundle : kCaBundles)
        if (::access((root + bundle).c_str(), R_OK) == 0) return root + bundle;
    return std::nullopt;
}

std::string tls_error_text(SSL* ssl, int result) {
    const int error = SSL_get_error(ssl, result);
    const long verified = SSL_get_verify_result(ssl);
    if (verified != X509_V_OK) {
        ERR_clear_error();
        if (verified == X509_V_ERR_HOSTNAME_MISMATCH || verified == X509_V_ERR_IP_ADDRESS_MISMATCH)
            return "TLS: the server's certificate does not name it";
        return std::string("TLS: certificate verify failed: ") + X509_verify_cert_error_string(verified);
    }
    if (error == SSL_ERROR_SYSCALL) {
        const int saved = errno;
        ERR_clear_error();
        return saved ? std::string("TLS: ") + std::strerror(saved) : "TLS: the server closed the connection";
    }
    if (error == SSL_ERROR_ZERO_RETURN) return "TLS: the server closed the connection";
    return "TLS: " + openssl_error();
}

}  // namespace musatop::net
