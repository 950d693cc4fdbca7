#include "musatop/collection/driver/driver_reader.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "musatop/collection/driver/driver_parse.hpp"
#include "musatop/collection/procfs/proc_reader.hpp"
#include "musatop/util/text.hpp"
#include "musatop/util/unique_fd.hpp"

namespace musatop::driver {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kStatusBytes = 64 * 1024;
constexpr std::size_t kRingBytes = 16 * 1024;  // 50 slots of 256 bytes, with room to spare

// "0000:18:00.0": what a PCI function's directory is called.
bool pci_function_name(std::string_view name) {
    return name.size() == 12 && name[4] == ':' && name[7] == ':' && name[10] == '.';
}

}  // namespace

std::string DriverReader::path(const std::string& inside) const {
    return (fs::path(root_) / fs::path(inside).relative_path()).string();
}

std::optional<std::string> DriverReader::bus_id_of(const std::string& devname_text, std::string& why_not) const {
    const auto misc = misc_device_number(devname_text);
    if (!misc) {
        why_not = "devname is '" + std::string(text::trim(devname_text)) + "', not mtgpu.N";
        return std::nullopt;
    }
    const std::string link = path("/sys/class/misc/mtgpu." + std::to_string(*misc) + "/device");
    std::error_code error;
    const fs::path target = fs::canonical(link, error);
    if (error) {
        why_not = link + ": " + error.message();
        return std::nullopt;
    }
    const std::string name = target.filename().string();
    if (!pci_function_name(name)) {
        why_not = link + " leads to " + name + ", not a PCI function";
        return std::nullopt;
    }
    return name;
}

// The ring, read from offset 0 only: an lseek anywhere else makes the kernel call a
// NULL function (spec §3.4), so pread at 0 on a fresh descriptor is the whole access.
void DriverReader::read_events(const std::string& directory, DriverGpu& gpu) const {
    UniqueFd fd(::open((directory + "/event_report").c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
    if (!fd.valid()) {
        const int error = errno;
        gpu.events_error = error == ENOENT ? "event_report is off (enable_event_report=0) or not in this driver"
                                           : std::string("event_report: ") + std::strerror(error);
        return;
    }
    std::string bytes(kRingBytes, '\0');
    ssize_t n = -1;
    do n = ::pread(fd.get(), bytes.data(), bytes.size(), 0);
    while (n < 0 && errno == EINTR);
    if (n < 0) {
        gpu.events_error = std::string("event_report: ") + std::strerror(errno);
        return;
    }
    bytes.resize(static_cast<std::size_t>(n));
    gpu.events = parse_event_ring(bytes);
}

DriverTree DriverReader::read(bool process_util) const {
    DriverTree tree;
    const std::string base = path("/proc/driver/musa");
    std::error_code error;
    fs::directory_iterator entries(base, error);
    if (error) {
        tree.absent = base + ": " + error.message();
        return tree;
    }
    for (const auto& entry : entries) {
        const std::string name = entry.path().filename().string();
        const auto number = gpu_directory_number(name);
        if (!number) continue;
        DriverGpu gpu;
        gpu.number = *number;
        gpu.directory = name;
        const std::string dir = entry.path().string();
        const auto devname = procfs::read_file(dir + "/devname", 256);
        std::string why_not = devname.ok() ? "" : std::string("devname: ") + std::strerror(devname.error);
        if (devname.ok()) gpu.bus_id = bus_id_of(devname.content, why_not);
        if (!gpu.bus_id) gpu.unmapped = why_not;
        const auto status = procfs::read_file(dir + "/status", kStatusBytes);
        if (!status.ok()) gpu.status_error = std::string("status: ") + std::strerror(status.error);
        else if (auto parsed = parse_status(status.content); parsed.ok()) gpu.status = std::move(parsed.value());
        else gpu.status_error = "status: " + parsed.error();
        read_events(dir, gpu);
        if (process_util) {
            const auto util = procfs::read_file(dir + "/proc_util", kStatusBytes);
            if (!util.ok()) gpu.processes_error = std::string("proc_util: ") + std::strerror(util.error);
            else if (auto rows = parse_proc_util(util.content); rows.ok()) gpu.processes = std::move(rows.value());
            else gpu.processes_error = "proc_util: " + rows.error();
        }
        tree.gpus.push_back(std::move(gpu));
    }
    std::sort(tree.gpus.begin(), tree.gpus.end(),
              [](const DriverGpu& a, const DriverGpu& b) { return a.number < b.number; });
    return tree;
}

}  // namespace musatop::driver
