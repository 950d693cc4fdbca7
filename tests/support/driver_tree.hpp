// A fake /proc/driver/musa and /sys under a test directory, pointed at with
// MUSATOP_DRIVER_ROOT: gpuNN directories tied (or not) to a PCI function.
#pragma once

#include <filesystem>
#include <string>

#include "test_support.hpp"

namespace musatop::testing {

class FakeDriverTree {
public:
    explicit FakeDriverTree(std::filesystem::path root) : root_(std::move(root)) {}

    // gpuNN whose devname is mtgpu.<misc>; with a bus ("0000:03:00.0") the misc
    // device leads to that PCI function, without one the chain breaks there.
    void add_gpu(const std::string& dir, int misc, const std::string& bus = "") const {
        namespace fs = std::filesystem;
        fs::create_directories(musa() / dir);
        write_text(musa() / dir / "devname", "mtgpu." + std::to_string(misc) + "\n");
        if (bus.empty()) return;
        const auto misc_dir = root_ / "sys/class/misc" / ("mtgpu." + std::to_string(misc));
        fs::create_directories(root_ / "sys/devices/pci0000:00" / bus);
        fs::create_directories(misc_dir);
        fs::create_directory_symlink("../../../devices/pci0000:00/" + bus, misc_dir / "device");
    }
    void write(const std::string& dir, const std::string& file, const std::string& content) const {
        write_text(musa() / dir / file, content);
    }
    std::string env() const { return "MUSATOP_DRIVER_ROOT=" + root_.string(); }

private:
    std::filesystem::path musa() const { return root_ / "proc/driver/musa"; }
    std::filesystem::path root_;
};

}  // namespace musatop::testing
