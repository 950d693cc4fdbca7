// Five minutes of per-second peaks for the host, every GPU (keyed by identity, never
// by index) and the ALL aggregate. Fixed-size storage: memory does not grow with run
// time or sampling rate.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "musatop/model/snapshot.hpp"

namespace musatop {

inline constexpr std::int64_t kHistorySeconds = 300;

struct HistoryPoint {
    std::int64_t second = 0;
    std::optional<double> util_percent;
    std::optional<double> memory_percent;

    bool operator==(const HistoryPoint&) const = default;
};

// At most one point per second, seconds strictly increasing, bounded to the window.
class Series {
public:
    // Same second as the last point: keep the per-metric peak. Otherwise append.
    void append(const HistoryPoint& point);
    // Drops points older than `second - 299`.
    void prune(std::int64_t second);
    bool empty() const { return count_ == 0; }
    std::size_t size() const { return count_; }
    HistoryPoint at(std::size_t i) const;
    std::vector<HistoryPoint> points() const;

private:
    // 16 bytes a point rather than HistoryPoint's 40: with 256 GPUs the history is
    // held two or three times over (the sampler's, the newest frame's, the one the
    // screen is drawing), 9 MiB at 40 bytes. Floats hold a percentage to 7 digits;
    // NaN is unknown (a valid percentage is finite).
    struct Stored {
        std::int64_t second = 0;
        float util_percent = 0;
        float memory_percent = 0;
    };
    std::array<Stored, kHistorySeconds> ring_{};
    std::size_t head_ = 0;
    std::size_t count_ = 0;
};

// "uuid:<uuid>" or "pci:<bus id>" (trimmed, lower-cased); none when both are unknown.
std::optional<std::string> gpu_history_key(const Device& device);

// used / total x 100; unknown for a non-positive total or used outside [0, total].
std::optional<double> occupancy_percent(std::optional<std::int64_t> used, std::optional<std::int64_t> total);

// A finite value within [0, 100], else unknown.
std::optional<double> valid_percent(std::optional<double> value);

struct AggregateValues {
    std::optional<double> util_percent;    // mean, only if every device has one
    std::optional<double> memory_percent;  // total used / total capacity, only if every device has both
};
AggregateValues aggregate_values(const std::vector<const Device*>& devices);

class History {
public:
    // Only the GPUs with these indices make up the ALL aggregate (all when unset).
    explicit History(std::optional<std::set<std::int64_t>> aggregate_indices = std::nullopt)
        : aggregate_indices_(std::move(aggregate_indices)) {}

    // Records a completed sample in the whole second of `completed_at`.
    void record(const Snapshot& snapshot, MonoTime completed_at);
    // Ages out points at `second`; a clock that went backwards clears everything.
    void prune(std::int64_t second);

    const Series* host() const { return host_.empty() ? nullptr : &host_; }
    const Series* aggregate() const { return aggregate_ && !aggregate_->empty() ? &*aggregate_ : nullptr; }
    const Series* gpu(const std::string& key) const;

private:
    std::optional<std::set<std::int64_t>> aggregate_indices_;
    std::optional<std::int64_t> last_pruned_;
    Series host_;
    std::map<std::string, Series> gpus_;
    std::optional<Series> aggregate_;
    std::set<std::string> aggregate_members_;
};

}  // namespace musatop
