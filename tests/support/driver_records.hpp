// event_report records as the driver writes them (spec §3.2, §3.3), for the parser's
// tests and for fake driver trees.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace musatop::testing {

inline std::string little32(std::uint32_t v) {
    std::string out(4, '\0');
    for (int i = 0; i < 4; ++i) out[static_cast<std::size_t>(i)] = static_cast<char>(v >> (8 * i));
    return out;
}
inline std::string little64(std::uint64_t v) {
    return little32(static_cast<std::uint32_t>(v)) + little32(static_cast<std::uint32_t>(v >> 32));
}

// The S5000 `status` capture (spec §4.2) under a compute kernel: "Server", COMP
// with its odd spacing, TAB prefixes, the work on the "2D" line.
inline const std::string kFieldStatusUnderLoad =
    "Driver Status:   OK\nDevice ID: 0:0\nFirmware Status: OK\nServer Errors:   3\n"
    "HWR Event Count: 0\nCRR Event Count: 0\nSLR Event Count: 0\nWGP Error Count: 0\n"
    "TRP Error Count: 0\nFWF Event Count: 0\nAPM Event Count: 0\n"
    "GPU Overall Utilisation:      42%\n\tGEOM Utilisation:     0%\n\t3D Utilisation:       0%\n"
    "\tCOMP Utilisation:  0%\n\t2D Utilisation:       42%\n";

// The S5000 `proc_util` header line (spec §2.1), and a row in the G2 printf's format.
inline const std::string kProcUtilHeader =
    "device:    (0, 128)\n\tPid \t VPid \t Total \t   2D \t   TA \t   3D \t  CMP \t  TRANSFER \t PidName\n";
inline std::string proc_util_row(std::uint64_t pid, std::uint64_t vpid, int total, int cmp, const std::string& name) {
    char row[160];
    std::snprintf(row, sizeof row, "  %9llu %9llu \t %3d%% \t %3d%% \t %3d%% \t %3d%% \t %3d%% \t %3d%% \t %s\n",
                  static_cast<unsigned long long>(pid), static_cast<unsigned long long>(vpid), total, 0, 0, 0, cmp, 0,
                  name.c_str());
    return row;
}

struct Gen2Record {
    std::uint32_t xid = 0x05000002;  // MTBIOS GPU_BIOS_TRAP
    std::uint32_t bits = 0x11;       // scope gpu (1), severity fatal (2 << 3)
    std::uint64_t time = 0x6aa9fa5c;
    std::uint64_t sbdf = 0x00180000;  // 0000:18:00.0
    std::uint64_t pid = 0x2dad4b;
    std::string text = "xid_inject from procfs\n";
};

// 256 bytes; the defaults are the captured record of spec §3.3.
inline std::string gen2_record(const Gen2Record& r = {}) {
    std::string out = little32(0x01000001) + little32(0xb8);
    const unsigned char uuid[] = {0x14, 0xe0, 0x5c, 0x9a, 0x2d, 0xc4, 0x1b, 0xe0,
                                  0xa5, 0x63, 0xe7, 0xd6, 0x39, 0x34, 0x36, 0x00};
    out.append(reinterpret_cast<const char*>(uuid), 16);
    out += std::string("\x01\x00\x00\x00", 4) + little32(r.xid) + little32(r.bits) + little32(0);
    out += little64(r.time) + little64(r.sbdf) + little64(r.pid);
    std::string text = r.text;
    text.resize(192, '\0');
    return out + text;
}

}  // namespace musatop::testing
