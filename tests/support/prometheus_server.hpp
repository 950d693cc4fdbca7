// A real Prometheus (the Debian package) started by a test on loopback: scraping
// the given targets every second, its data in the scenario's directory; stopped
// and reaped by the destructor.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scenario.hpp"

namespace musatop::testing {

class PrometheusServer {
public:
    static bool installed();

    PrometheusServer(const Scenario& scenario, const std::vector<int>& target_ports,
                     const std::string& job = "musatop");
    PrometheusServer(const PrometheusServer&) = delete;
    PrometheusServer& operator=(const PrometheusServer&) = delete;
    ~PrometheusServer();

    int port() const { return port_; }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
    // An instant query; null when Prometheus does not answer (yet).
    nlohmann::json query(const std::string& promql) const;
    // The first sample's value as Prometheus prints it, or "".
    std::string first_value(const std::string& promql) const;
    std::string log() const;

private:
    const Scenario& scenario_;
    int port_;
    pid_t pid_ = -1;
};

}  // namespace musatop::testing
