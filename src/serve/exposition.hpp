// (internal to serve) The pieces of the Prometheus text format the metric writers
// share: a number as the format spells it, a family with its HELP and TYPE, and
// the labels of a GPU's series.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "musatop/model/snapshot.hpp"

namespace musatop::serve {

// Whole numbers exactly (bytes, counts); others with 15 significant digits, so a
// percentage divided by 100 prints as 0.646, not 0.6459999999999999.
std::string exposition_number(double value);

using Labels = std::vector<std::pair<std::string_view, std::string>>;

// One metric family: HELP and TYPE once, then its series; nothing when it has none.
class Family {
public:
    Family(std::string_view name, std::string_view type, std::string_view help)
        : name_(name), type_(type), help_(help) {}
    void add(const Labels& labels, double value);
    void write(std::string& out) const;

private:
    std::string_view name_, type_, help_;
    std::string series_;
};

// gpu="3", uuid="…": every GPU series starts with these.
Labels gpu_labels(const Device& d);

// The driver's families (docs/serve.md): status, counters, XID events, engines, and
// per-process utilisation when process series are on.
void write_driver_families(std::string& out, const Snapshot& s, bool process_series);

}  // namespace musatop::serve
