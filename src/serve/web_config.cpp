#include "musatop/serve/web_config.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <yaml-cpp/yaml.h>

namespace musatop::serve {
namespace {

std::string where(const std::string& origin, const YAML::Node& node) {
    const YAML::Mark mark = node.Mark();
    if (mark.line < 0) return origin;
    return origin + ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1);
}

struct ConfigError {
    std::string message;
};

std::string scalar(const YAML::Node& node, const std::string& key, const std::string& origin) {
    if (!node.IsScalar()) throw ConfigError{where(origin, node) + ": " + key + " must be a string"};
    return node.Scalar();
}

std::string resolve(const std::string& path, const std::string& base_dir) {
    if (path.empty() || path.front() == '/' || base_dir.empty()) return path;
    return (std::filesystem::path(base_dir) / path).string();
}

TlsFiles parse_tls(const YAML::Node& node, const std::string& origin, const std::string& base_dir) {
    if (!node.IsMap()) throw ConfigError{where(origin, node) + ": tls_server_config must be a mapping"};
    TlsFiles tls;
    for (const auto& entry : node) {
        const std::string key = entry.first.as<std::string>();
        if (key == "cert_file") {
            tls.cert_file = resolve(scalar(entry.second, key, origin), base_dir);
        } else if (key == "key_file") {
            tls.key_file = resolve(scalar(entry.second, key, origin), base_dir);
        } else {
            // exporter-toolkit knows more TLS keys (client CAs, cipher suites); we
            // refuse them rather than silently serve a weaker setup than configured.
            throw ConfigError{where(origin, entry.first) + ": unsupported key tls_server_config." + key};
        }
    }
    if (tls.cert_file.empty() || tls.key_file.empty())
        throw ConfigError{where(origin, node) + ": tls_server_config needs both cert_file and key_file"};
    return tls;
}

std::map<std::string, std::string> parse_users(const YAML::Node& node, const std::string& origin) {
    if (!node.IsMap()) throw ConfigError{where(origin, node) + ": basic_auth_users must be a mapping"};
    std::map<std::string, std::string> users;
    for (const auto& entry : node) {
        const std::string name = scalar(entry.first, "a user name", origin);
        const std::string hash = scalar(entry.second, "the hash of " + name, origin);
        if (name.empty() || name.find(':') != std::string::npos)
            throw ConfigError{where(origin, entry.first) + ": user names must be non-empty and without ':'"};
        if (hash.size() != 60 || hash[0] != '$' || hash[1] != '2' || hash[3] != '$')
            throw ConfigError{where(origin, entry.second) + ": the password of " + name +
                              " must be a bcrypt hash ($2y$..., e.g. from htpasswd -nBC 10)"};
        users[name] = hash;
    }
    return users;
}

}  // namespace

Result<WebConfig> parse_web_config(const std::string& yaml, const std::string& origin, const std::string& base_dir) {
    try {
        const YAML::Node root = YAML::Load(yaml);
        WebConfig config;
        if (root.IsNull()) return config;
        if (!root.IsMap()) return Error{where(origin, root) + ": the web config must be a mapping"};
        for (const auto& entry : root) {
            const std::string key = entry.first.as<std::string>();
            if (key == "tls_server_config") {
                config.tls = parse_tls(entry.second, origin, base_dir);
            } else if (key == "basic_auth_users") {
                config.users = parse_users(entry.second, origin);
            } else {
                return Error{where(origin, entry.first) + ": unknown key " + key +
                             " (known: tls_server_config, basic_auth_users)"};
            }
        }
        return config;
    } catch (const ConfigError& error) {
        return Error{error.message};
    } catch (const YAML::Exception& error) {
        const std::string at = error.mark.line >= 0 ? ":" + std::to_string(error.mark.line + 1) + ":" +
                                                          std::to_string(error.mark.column + 1)
                                                    : "";
        return Error{origin + at + ": invalid YAML: " + error.msg};
    }
}

Result<WebConfig> load_web_config(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{path + ": cannot read the web config"};
    std::ostringstream text;
    text << in.rdbuf();
    return parse_web_config(text.str(), path, std::filesystem::path(path).parent_path().string());
}

}  // namespace musatop::serve
