#include "musatop/collection/procfs/host_sampler.hpp"

#include <unistd.h>

#include <cstring>

#include "musatop/collection/procfs/proc_reader.hpp"
#include "musatop/util/utf8.hpp"

namespace musatop::procfs {

Result<HostMetrics> HostSampler::sample() {
    HostMetrics host;
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) == 0) host.hostname = utf8::repair(name);

    const auto stat = read_file(root_ + "/stat");
    if (!stat.ok()) return Error{"cannot read " + root_ + "/stat: " + std::strerror(stat.error)};
    const auto times = parse_cpu_times(stat.content);
    if (!times) return Error{"unrecognised " + root_ + "/stat"};
    if (previous_) host.cpu_percent = cpu_percent_between(*previous_, *times);
    previous_ = times;

    const auto meminfo = read_file(root_ + "/meminfo");
    if (!meminfo.ok()) return Error{"cannot read " + root_ + "/meminfo: " + std::strerror(meminfo.error)};
    const auto memory = parse_meminfo(meminfo.content);
    if (!memory) return Error{"unrecognised " + root_ + "/meminfo"};
    host.memory_total_bytes = memory->total_bytes;
    host.memory_used_bytes = memory->used_bytes;
    return host;
}

void HostSampler::sample_into(Snapshot& snapshot) {
    auto host = sample();
    if (host.ok()) {
        snapshot.host = std::move(host.value());
    } else {
        snapshot.errors.push_back("Host sampling failed: " + host.error());
    }
}

}  // namespace musatop::procfs
