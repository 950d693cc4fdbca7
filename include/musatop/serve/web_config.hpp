// `--web-config-file`: the exporter-toolkit web configuration that node_exporter
// and Prometheus use (TLS server certificate, HTTP basic-auth users with bcrypt
// hashes). Unknown keys are errors, as there.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "musatop/util/result.hpp"

namespace musatop::serve {

struct TlsFiles {
    std::string cert_file;
    std::string key_file;
};

struct WebConfig {
    std::optional<TlsFiles> tls;
    std::map<std::string, std::string> users;  // name -> bcrypt hash
};

// Parses the YAML text; `origin` names the file in messages ("FILE:LINE:COLUMN: ...").
// Relative certificate paths are taken relative to `base_dir`, as exporter-toolkit does.
Result<WebConfig> parse_web_config(const std::string& yaml, const std::string& origin, const std::string& base_dir);

Result<WebConfig> load_web_config(const std::string& path);

}  // namespace musatop::serve
