// The driver's files read from a fake tree under a test root: a GPU tied to its PCI
// function through devname and /sys/class/misc, one whose chain breaks (its data
// kept, with the reason, tied to no GPU), missing files, and no driver at all.
#include <gtest/gtest.h>

#include <filesystem>

#include "musatop/collection/driver/driver_reader.hpp"
#include "test_support.hpp"

using namespace musatop;
using musatop::testing::TempDir;
using musatop::testing::write_text;

namespace {

namespace fs = std::filesystem;

void make_gpu(const fs::path& root, const std::string& dir, const std::string& devname, const std::string& status) {
    const fs::path gpu = root / "proc/driver/musa" / dir;
    fs::create_directories(gpu);
    write_text(gpu / "devname", devname);
    if (!status.empty()) write_text(gpu / "status", status);
}

}  // namespace

TEST(DriverReader, ATreeWithAMappedAnUnmappedAndABrokenGpu) {
    TempDir tmp;
    const fs::path root = tmp.path();
    make_gpu(root, "gpu00", "mtgpu.0\n", "Driver Status:   OK\nFirmware Status: OK\nGPU Overall Utilisation:   7%\n");
    write_text(root / "proc/driver/musa/gpu00/event_report", std::string(6400, '\0'));  // an empty ring
    fs::create_directories(root / "sys/devices/pci0000:00/0000:18:00.0");
    fs::create_directories(root / "sys/class/misc/mtgpu.0");
    fs::create_directory_symlink("../../../devices/pci0000:00/0000:18:00.0", root / "sys/class/misc/mtgpu.0/device");
    make_gpu(root, "gpu0a", "mtgpu.unknown\n", "kvzalloc error\n");
    make_gpu(root, "gpu01", "mtgpu.1\n", "");  // no status file, and no misc device for it
    fs::create_directories(root / "proc/driver/musa/mtlink");
    write_text(root / "proc/driver/musa/version", "package version:2.7.0\n");

    const auto tree = driver::DriverReader(root.string()).read(false);
    EXPECT_FALSE(tree.absent);
    ASSERT_EQ(tree.gpus.size(), 3u);  // mtlink and version are not GPUs
    const auto& first = tree.gpus[0];
    EXPECT_EQ(first.directory, "gpu00");
    EXPECT_EQ(first.bus_id, "0000:18:00.0");
    ASSERT_TRUE(first.status);
    EXPECT_EQ(first.status->overall_utilization_percent, 7.0);
    EXPECT_TRUE(first.events.empty());
    EXPECT_FALSE(first.events_error);
    EXPECT_FALSE(first.processes);  // proc_util is read only when asked

    const auto& second = tree.gpus[1];
    EXPECT_EQ(second.directory, "gpu01");
    EXPECT_FALSE(second.bus_id);
    EXPECT_NE(second.unmapped->find("sys/class/misc/mtgpu.1/device"), std::string::npos) << *second.unmapped;
    EXPECT_NE(second.status_error->find("No such file"), std::string::npos) << *second.status_error;
    EXPECT_NE(second.events_error->find("enable_event_report=0"), std::string::npos);

    const auto& tenth = tree.gpus[2];
    EXPECT_EQ(tenth.number, 10);  // gpu0a: hex
    EXPECT_EQ(tenth.unmapped, "devname is 'mtgpu.unknown', not mtgpu.N");
    EXPECT_EQ(tenth.status_error, "status: no status line in the file");
}

TEST(DriverReader, ProcUtilWhenAskedAndNoDriverAtAll) {
    TempDir tmp;
    make_gpu(tmp.path(), "gpu00", "mtgpu.0\n", "Driver Status:   OK\n");
    write_text(tmp.path() / "proc/driver/musa/gpu00/proc_util",
               "\tPid \t VPid \t Total \t  CDM \t PidName\n   4242   4242 \t  37% \t  37% \t python\n");
    const auto tree = driver::DriverReader(tmp.path().string()).read(true);
    ASSERT_EQ(tree.gpus.size(), 1u);
    ASSERT_TRUE(tree.gpus[0].processes);
    ASSERT_EQ(tree.gpus[0].processes->size(), 1u);
    EXPECT_EQ((*tree.gpus[0].processes)[0].pid, 4242);

    TempDir empty;
    const auto none = driver::DriverReader(empty.path().string()).read(true);
    EXPECT_TRUE(none.gpus.empty());
    EXPECT_NE(none.absent->find("proc/driver/musa"), std::string::npos);
}
