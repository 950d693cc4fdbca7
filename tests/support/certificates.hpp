// TLS material for the tests, made with the openssl command in a scenario's folder.
#pragma once

#include "scenario.hpp"

namespace musatop::testing {

// tls.crt and tls.key: a self-signed certificate for 127.0.0.1.
bool make_certificate(const Scenario& scenario);

// web.yml with TLS and the user prometheus (password s3cret), bcrypt-hashed.
bool protect(const Scenario& scenario);

}  // namespace musatop::testing
