// The tests' one way to build a Snapshot: a time, a host, n GPUs and n processes,
// each row given its identity (index and "uuid-N"; PID 1000 + N on GPU N mod the
// GPU count) and then whatever the test sets on it.
#pragma once

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "musatop/model/snapshot.hpp"

namespace musatop::testing {

class SnapshotBuilder {
public:
    // sampled_at, and the device and process times with it.
    SnapshotBuilder& at(WallTime time) {
        s_.sampled_at = time;
        s_.devices_sampled_at = time;
        s_.processes_sampled_at = time;
        return *this;
    }
    SnapshotBuilder& host(const std::string& name, std::optional<double> cpu_percent = std::nullopt,
                          std::optional<std::int64_t> memory_used_bytes = std::nullopt,
                          std::optional<std::int64_t> memory_total_bytes = std::nullopt) {
        s_.host.hostname = name;
        s_.host.cpu_percent = cpu_percent;
        s_.host.memory_used_bytes = memory_used_bytes;
        s_.host.memory_total_bytes = memory_total_bytes;
        return *this;
    }
    SnapshotBuilder& gpus(int count, const std::function<void(Device&, int)>& each = {}) {
        for (int i = 0; i < count; ++i) {
            Device d;
            d.index = i;
            d.uuid = "uuid-" + std::to_string(i);
            if (each) each(d, i);
            s_.devices.push_back(std::move(d));
        }
        return *this;
    }
    SnapshotBuilder& processes(int count, const std::function<void(GpuProcess&, int)>& each = {}) {
        const int gpu_count = std::max<int>(1, static_cast<int>(s_.devices.size()));
        for (int i = 0; i < count; ++i) {
            GpuProcess p;
            p.device_index = i % gpu_count;
            p.pid = 1000 + i;
            if (each) each(p, i);
            s_.processes.push_back(std::move(p));
        }
        return *this;
    }
    // Rows made by the test itself, as they are.
    SnapshotBuilder& devices(std::vector<Device> rows) {
        s_.devices = std::move(rows);
        return *this;
    }
    SnapshotBuilder& rows(std::vector<GpuProcess> rows) {
        s_.processes = std::move(rows);
        return *this;
    }
    SnapshotBuilder& stale(bool devices, bool processes) {
        s_.devices_stale = devices;
        s_.processes_stale = processes;
        return *this;
    }
    // Anything else (versions, errors).
    SnapshotBuilder& with(const std::function<void(Snapshot&)>& change) {
        change(s_);
        return *this;
    }
    Snapshot build() const { return s_; }

private:
    Snapshot s_;
};

}  // namespace musatop::testing
