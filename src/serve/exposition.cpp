#include "exposition.hpp"

#include <array>
#include <charconv>
#include <cmath>

#include "musatop/serve/metrics.hpp"

namespace musatop::serve {
namespace {

constexpr std::string_view kCached = " Cached: from the sampler's last round.";

}  // namespace

std::string exposition_number(double value) {
    if (std::isnan(value)) return "NaN";
    if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
    if (value == std::trunc(value) && std::fabs(value) < 9e15) return std::to_string(static_cast<std::int64_t>(value));
    std::array<char, 64> buffer{};
    const auto [end, error] =
        std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, std::chars_format::general, 15);
    return error == std::errc{} ? std::string(buffer.data(), end) : "NaN";
}

void Family::add(const Labels& labels, double value) {
    series_ += name_;
    if (!labels.empty()) {
        series_ += '{';
        for (std::size_t i = 0; i < labels.size(); ++i) {
            if (i) series_ += ',';
            series_ += std::string(labels[i].first) + "=\"" + labels[i].second + '"';
        }
        series_ += '}';
    }
    series_ += ' ' + exposition_number(value) + '\n';
}

void Family::write(std::string& out) const {
    if (series_.empty()) return;
    out += "# HELP " + std::string(name_) + ' ' + std::string(help_) + std::string(kCached) + '\n';
    out += "# TYPE " + std::string(name_) + ' ' + std::string(type_) + '\n';
    out += series_;
}

Labels gpu_labels(const Device& d) {
    return {{"gpu", std::to_string(d.index)}, {"uuid", label_value(d.uuid.value_or(""))}};
}

}  // namespace musatop::serve
