// What a round's reads of /proc/driver/musa cost: builds a fake tree of N GPUs
// (the S5000 status under load, a full 50-record event ring, proc_util with 16
// rows) under a temporary directory and times DriverReader::read, with and without
// proc_util. The files are on a regular file system, not procfs: this measures
// musatop's side (open, pread, parse, tie to the PCI function), not the driver's.
// Usage: driver-read GPUS [ROUNDS]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "musatop/collection/driver/driver_reader.hpp"

namespace fs = std::filesystem;

namespace {

void write(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::string little(std::uint64_t v, int bytes) {
    std::string out(static_cast<std::size_t>(bytes), '\0');
    for (int i = 0; i < bytes; ++i) out[static_cast<std::size_t>(i)] = static_cast<char>(v >> (8 * i));
    return out;
}

std::string ring() {
    std::string bytes;
    for (int i = 0; i < 50; ++i) {
        std::string r = little(0x01000001, 4) + little(0xb8, 4) + std::string(16, '\x5a') + little(1, 4) +
                        little(0x05000002, 4) + little(0x11, 4) + little(0, 4) + little(1796000000 + i, 8) +
                        little(0x30000, 8) + little(4242, 8) + "xid_inject from procfs\n";
        r.resize(256, '\0');
        bytes += r;
    }
    return bytes;
}

const char* kStatus =
    "Driver Status:   OK\nDevice ID: 0:0\nFirmware Status: OK\nServer Errors:   3\nHWR Event Count: 0\n"
    "CRR Event Count: 0\nSLR Event Count: 0\nWGP Error Count: 0\nTRP Error Count: 0\nFWF Event Count: 0\n"
    "APM Event Count: 0\nGPU Overall Utilisation:      42%\n\tGEOM Utilisation:     0%\n"
    "\t3D Utilisation:       0%\n\tCOMP Utilisation:  0%\n\t2D Utilisation:       42%\n";

std::string proc_util() {
    std::string text =
        "device:    (0, 128)\n\tPid \t VPid \t Total \t   2D \t   TA \t   3D \t  CMP \t  TRANSFER \t PidName\n";
    for (int pid = 1000; pid < 1016; ++pid)
        text += "  " + std::to_string(pid) + " " + std::to_string(pid) +
                " \t  12% \t   0% \t   0% \t   0% \t  12% \t   0% \t python3\n";
    return text;
}

void build(const fs::path& root, int gpus) {
    for (int n = 0; n < gpus; ++n) {
        char dir[32], bus[32];
        std::snprintf(dir, sizeof dir, "gpu%02x", n);
        std::snprintf(bus, sizeof bus, "0000:%02x:00.0", n + 1);
        const fs::path gpu = root / "proc/driver/musa" / dir;
        fs::create_directories(gpu);
        write(gpu / "devname", "mtgpu." + std::to_string(n) + "\n");
        write(gpu / "status", kStatus);
        write(gpu / "event_report", ring());
        write(gpu / "proc_util", proc_util());
        const fs::path misc = root / "sys/class/misc" / ("mtgpu." + std::to_string(n));
        fs::create_directories(root / "sys/devices/pci0000:00" / bus);
        fs::create_directories(misc);
        fs::create_directory_symlink(std::string("../../../devices/pci0000:00/") + bus, misc / "device");
    }
}

double micros_per_round(const musatop::driver::DriverReader& reader, bool process_util, int rounds) {
    std::size_t seen = 0;
    const auto started = std::chrono::steady_clock::now();
    for (int i = 0; i < rounds; ++i) seen += reader.read(process_util).gpus.size();
    const auto took = std::chrono::steady_clock::now() - started;
    if (seen == 0) std::abort();
    return std::chrono::duration<double, std::micro>(took).count() / rounds;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: driver-read GPUS [ROUNDS]\n");
        return 2;
    }
    const int gpus = std::atoi(argv[1]);
    const int rounds = argc > 2 ? std::atoi(argv[2]) : 2000;
    char pattern[] = "/tmp/driver-read-XXXXXX";
    const fs::path root = ::mkdtemp(pattern);
    build(root, gpus);
    const musatop::driver::DriverReader reader(root.string());
    micros_per_round(reader, true, rounds / 10 + 1);  // warm the page cache
    const double without = micros_per_round(reader, false, rounds);
    const double with = micros_per_round(reader, true, rounds);
    std::printf("%-6d %14.1f %14.1f %18.1f %18.1f\n", gpus, without, without / gpus, with, with / gpus);
    fs::remove_all(root);
    return 0;
}
