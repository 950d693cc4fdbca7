#include "musatop/model/history.hpp"

#include <algorithm>
#include <cmath>

#include "musatop/util/text.hpp"

namespace musatop {
namespace {

std::optional<double> peak(std::optional<double> a, std::optional<double> b) {
    if (!a) return b;
    if (!b) return a;
    return std::max(*a, *b);
}

std::optional<std::string> identity_part(const std::optional<std::string>& value) {
    if (!value || text::is_missing_token(*value)) return std::nullopt;
    return text::fold_case(text::trim(*value));
}

}  // namespace

namespace {

float stored(std::optional<double> value) { return value ? static_cast<float>(*value) : std::nanf(""); }

std::optional<double> unstored(float value) { return std::isnan(value) ? std::nullopt : std::optional<double>(value); }

}  // namespace

HistoryPoint Series::at(std::size_t i) const {
    const Stored& s = ring_[(head_ + i) % ring_.size()];
    return {s.second, unstored(s.util_percent), unstored(s.memory_percent)};
}

void Series::append(const HistoryPoint& point) {
    if (count_ > 0) {
        Stored& last = ring_[(head_ + count_ - 1) % ring_.size()];
        if (last.second == point.second) {
            last.util_percent = stored(peak(unstored(last.util_percent), point.util_percent));
            last.memory_percent = stored(peak(unstored(last.memory_percent), point.memory_percent));
            return;
        }
    }
    if (count_ == ring_.size()) {  // only reachable if prune was skipped: keep the window
        head_ = (head_ + 1) % ring_.size();
        --count_;
    }
    ring_[(head_ + count_) % ring_.size()] = {point.second, stored(point.util_percent), stored(point.memory_percent)};
    ++count_;
}

void Series::prune(std::int64_t second) {
    while (count_ > 0 && ring_[head_].second < second - (kHistorySeconds - 1)) {
        head_ = (head_ + 1) % ring_.size();
        --count_;
    }
}

std::vector<HistoryPoint> Series::points() const {
    std::vector<HistoryPoint> out;
    out.reserve(count_);
    for (std::size_t i = 0; i < count_; ++i) out.push_back(at(i));
    return out;
}

std::optional<std::string> gpu_history_key(const Device& device) {
    if (auto uuid = identity_part(device.uuid)) return "uuid:" + *uuid;
    if (auto bus = identity_part(device.bus_id)) return "pci:" + *bus;
    return std::nullopt;
}

std::optional<double> valid_percent(std::optional<double> value) {
    if (!value || !std::isfinite(*value) || *value < 0 || *value > 100) return std::nullopt;
    return value;
}

std::optional<double> occupancy_percent(std::optional<std::int64_t> used, std::optional<std::int64_t> total) {
    if (!used || !total || *total <= 0 || *used < 0 || *used > *total) return std::nullopt;
    return static_cast<double>(*used) / static_cast<double>(*total) * 100.0;
}

AggregateValues aggregate_values(const std::vector<const Device*>& devices) {
    if (devices.empty()) return {};
    AggregateValues values;
    double util_sum = 0;
    bool util_known = true;
    // Sizes are summed as floating point: int64 bytes of a few huge (or lying)
    // GPUs would overflow, and only the ratio is wanted.
    long double used = 0;
    long double total = 0;
    bool memory_known = true;
    for (const Device* d : devices) {
        const auto util = valid_percent(d->gpu_utilization_percent);
        util_known = util_known && util.has_value();
        if (util) util_sum += *util;
        memory_known = memory_known && occupancy_percent(d->memory_used_bytes, d->memory_total_bytes).has_value();
        if (memory_known) {
            used += static_cast<long double>(*d->memory_used_bytes);
            total += static_cast<long double>(*d->memory_total_bytes);
        }
    }
    if (util_known) values.util_percent = util_sum / static_cast<double>(devices.size());
    if (memory_known && total > 0) values.memory_percent = static_cast<double>(used / total * 100);
    return values;
}

void History::prune(std::int64_t second) {
    if (last_pruned_ && second < *last_pruned_) {
        host_ = Series{};
        gpus_.clear();
        aggregate_.reset();
        aggregate_members_.clear();
    }
    last_pruned_ = second;
    host_.prune(second);
    for (auto it = gpus_.begin(); it != gpus_.end();) {
        it->second.prune(second);
        it = it->second.empty() ? gpus_.erase(it) : std::next(it);
    }
    if (aggregate_) aggregate_->prune(second);
}

void History::record(const Snapshot& snapshot, MonoTime completed_at) {
    const std::int64_t second = whole_seconds(completed_at);
    prune(second);

    const auto host_util = valid_percent(snapshot.host.cpu_percent);
    const auto host_memory = occupancy_percent(snapshot.host.memory_used_bytes, snapshot.host.memory_total_bytes);
    if (host_util || host_memory) host_.append({second, host_util, host_memory});

    // Cached (stale) GPU values are for display only: they never enter history.
    if (snapshot.devices_stale) return;

    std::map<std::string, int> key_counts;
    std::vector<std::optional<std::string>> keys;
    for (const auto& device : snapshot.devices) {
        keys.push_back(gpu_history_key(device));
        if (keys.back()) ++key_counts[*keys.back()];
    }
    const auto active = [&](const std::optional<std::string>& key) { return key && key_counts[*key] == 1; };

    for (auto it = gpus_.begin(); it != gpus_.end();)
        it = (key_counts.count(it->first) && key_counts[it->first] == 1) ? std::next(it) : gpus_.erase(it);
    for (std::size_t i = 0; i < snapshot.devices.size(); ++i) {
        if (!active(keys[i])) continue;
        const Device& d = snapshot.devices[i];
        gpus_[*keys[i]].append({second, valid_percent(d.gpu_utilization_percent),
                                occupancy_percent(d.memory_used_bytes, d.memory_total_bytes)});
    }

    std::vector<const Device*> selected;
    std::set<std::string> members;
    bool identities_reliable = true;
    for (std::size_t i = 0; i < snapshot.devices.size(); ++i) {
        if (aggregate_indices_ && !aggregate_indices_->count(snapshot.devices[i].index)) continue;
        selected.push_back(&snapshot.devices[i]);
        identities_reliable = identities_reliable && active(keys[i]);
        if (keys[i]) members.insert(*keys[i]);
    }
    if (selected.empty() || !identities_reliable) {
        aggregate_.reset();
        aggregate_members_.clear();
        return;
    }
    if (!aggregate_ || members != aggregate_members_) {
        aggregate_.emplace();
        aggregate_members_ = members;
    }
    const AggregateValues values = aggregate_values(selected);
    aggregate_->append({second, values.util_percent, values.memory_percent});
}

const Series* History::gpu(const std::string& key) const {
    const auto it = gpus_.find(key);
    return it == gpus_.end() ? nullptr : &it->second;
}

}  // namespace musatop
