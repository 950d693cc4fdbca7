// The MUSA driver's procfs files, from the bytes the spec quotes
// (../shared/spec/musa-driver-files.md): every variant it lists, and what a reader
// must skip.
#include <gtest/gtest.h>

#include "musatop/collection/driver/driver_parse.hpp"
#include "driver_records.hpp"

using namespace musatop;
using namespace musatop::driver;

namespace {

// The S5000 capture (spec §4.2): "Server", COMP with its odd spacing, TAB prefixes.
const std::string kFieldStatus =
    "Driver Status:   OK\nDevice ID: 0:0\nFirmware Status: OK\nServer Errors:   3\n"
    "HWR Event Count: 0\nCRR Event Count: 0\nSLR Event Count: 0\nWGP Error Count: 0\n"
    "TRP Error Count: 0\nFWF Event Count: 0\nAPM Event Count: 0\n"
    "GPU Overall Utilisation:      42%\n\tGEOM Utilisation:     0%\n\t3D Utilisation:       0%\n"
    "\tCOMP Utilisation:  0%\n\t2D Utilisation:       42%\n";

// A gen1 record (spec §3.2): GUILTY_LOCKUP on 0000:03:00.0.
std::string gen1_record() {
    std::string r = musatop::testing::little32(1) + musatop::testing::little32(112) + musatop::testing::little32(0) +
                    musatop::testing::little32(3001) + musatop::testing::little64(0x30000) +
                    musatop::testing::little64(1789524572) + musatop::testing::little32(4);
    r.resize(56, '\0');
    std::string text = "lockup on ctx 7";
    text.resize(72, '\0');
    return r + text;
}

}  // namespace

TEST(DriverStatus, TheFieldCaptureReadsWhole) {
    const auto status = parse_status(kFieldStatus);
    ASSERT_TRUE(status.ok()) << status.error();
    EXPECT_EQ(status->driver_status, "OK");
    EXPECT_EQ(status->firmware_status, "OK");
    EXPECT_FALSE(status->firmware_reason);
    EXPECT_EQ(status->device_id, "0:0");
    ASSERT_EQ(status->counters.size(), 8u);
    EXPECT_EQ(status->counters[0], (DriverCounter{"Server Errors", 3}));
    EXPECT_EQ(status->counters[4], (DriverCounter{"WGP", 0}));
    EXPECT_EQ(status->overall_utilization_percent, 42.0);
    ASSERT_EQ(status->engines.size(), 4u);
    EXPECT_EQ(status->engines[2], (EngineUtilization{"COMP", 0.0}));  // labels kept as written
    EXPECT_EQ(status->engines[3], (EngineUtilization{"2D", 42.0}));
}

// The same S5000 at idle (spec §4.2): 0 % is what the file says, kept as 0, not unknown.
TEST(DriverStatus, TheIdleCaptureKeepsItsZeros) {
    std::string idle = kFieldStatus;
    for (std::size_t at; (at = idle.find("42%")) != std::string::npos;) idle.replace(at, 3, "0%");
    const auto status = parse_status(idle);
    ASSERT_TRUE(status.ok()) << status.error();
    EXPECT_EQ(status->overall_utilization_percent, 0.0);
    ASSERT_EQ(status->engines.size(), 4u);
    for (const auto& engine : status->engines) EXPECT_EQ(engine.percent, 0.0) << engine.label;
    EXPECT_EQ(status->counters.size(), 8u);
}

TEST(DriverStatus, OlderSpellingsReasonsAndUnknownLines) {
    const auto g2 = parse_status(
        "Driver Status:   UNKNOWN (7)\nFirmware Status: NOT RESPONDING (Poll failing)\nSercer Errors:   4294967295\n"
        "Future Line: 12\n\tCOMPUTE Utilisation: 100%\nNEW Event Count: 5");  // no final newline
    ASSERT_TRUE(g2.ok());
    EXPECT_EQ(g2->driver_status, "UNKNOWN (7)");
    EXPECT_EQ(g2->firmware_status, "NOT RESPONDING");
    EXPECT_EQ(g2->firmware_reason, "Poll failing");
    EXPECT_EQ(g2->counters[0], (DriverCounter{"Server Errors", 4294967295LL}));
    EXPECT_EQ(g2->counters[1], (DriverCounter{"NEW", 5}));  // a counter this build added
    EXPECT_EQ(g2->engines[0], (EngineUtilization{"COMPUTE", 100.0}));
    const auto g1 = parse_status("GPU Utilisation:17%\n");  // G1: one line, no space
    ASSERT_TRUE(g1.ok());
    EXPECT_EQ(g1->overall_utilization_percent, 17.0);
    EXPECT_FALSE(g1->driver_status);
    const auto odd = parse_status("GPU Overall Utilisation: 250%\n");
    ASSERT_TRUE(odd.ok());
    EXPECT_FALSE(odd->overall_utilization_percent);  // not a percentage: unknown, never clamped
    EXPECT_FALSE(parse_status("").ok());
    EXPECT_FALSE(parse_status("kvzalloc error\n").ok());
}

TEST(DriverEvents, TheCapturedGen2RecordAndAGen1Record) {
    const auto events = parse_event_ring(musatop::testing::gen2_record() + std::string(256 * 2, '\0'));
    ASSERT_EQ(events.size(), 1u);
    const DriverEvent& e = events[0];
    EXPECT_EQ(e.generation, 2);
    EXPECT_EQ(e.id, 0x05000002u);
    EXPECT_EQ(e.module, "MTBIOS");
    EXPECT_EQ(e.name, "GPU_BIOS_TRAP");
    EXPECT_EQ(e.severity, EventSeverity::fatal);
    EXPECT_EQ(e.scope, EventScope::gpu);
    EXPECT_EQ(e.time_seconds, 1789524572);
    EXPECT_EQ(e.bus_id, "0000:18:00.0");
    EXPECT_EQ(e.pid, 2993483);
    EXPECT_EQ(e.uuid, "14e05c9a-2dc4-1be0-a563-e7d639343600");
    EXPECT_EQ(e.text, "xid_inject from procfs");

    const auto old = parse_event_ring(std::string(128, '\0') + gen1_record() + gen1_record().substr(0, 100));
    ASSERT_EQ(old.size(), 1u);  // an empty slot first, a partial record last
    EXPECT_EQ(old[0].generation, 1);
    EXPECT_EQ(old[0].module, "DM");
    EXPECT_EQ(old[0].name, "GUILTY_LOCKUP");
    EXPECT_EQ(old[0].bus_id, "0000:03:00.0");
    EXPECT_FALSE(old[0].severity);  // gen1 has none
    EXPECT_EQ(old[0].text, "lockup on ctx 7");
}

TEST(DriverEvents, UnknownIdsAreKeptAndUnknownLayoutsStopTheScan) {
    std::string unknown = musatop::testing::gen2_record();
    unknown.replace(28, 4, musatop::testing::little32(0x02000042));  // MSS, a code the table lacks
    unknown.replace(32, 4, musatop::testing::little32(0x3f));        // severity 7, scope 7: out of range
    const auto kept = parse_event_ring(unknown);
    ASSERT_EQ(kept.size(), 1u);
    EXPECT_EQ(kept[0].module, "MSS");
    EXPECT_EQ(kept[0].name, "");
    EXPECT_FALSE(kept[0].severity);
    EXPECT_FALSE(kept[0].scope);
    std::string other_version = musatop::testing::gen2_record();
    other_version[24] = 2;  // an XID info version we do not know: skipped, the next record read
    EXPECT_EQ(parse_event_ring(other_version + musatop::testing::gen2_record()).size(), 1u);
    EXPECT_TRUE(parse_event_ring(musatop::testing::little32(0x02000001) + std::string(508, '\0') +
                                 musatop::testing::gen2_record())
                    .empty());
    EXPECT_TRUE(parse_event_ring("").empty());
}

TEST(DriverProcUtil, RowsByTheHeadersNames) {
    const auto g2 = parse_proc_util(
        "device:    (0, 128)\n\tPid \t VPid \t Total \t   2D \t   TA \t   3D \t  CDM \t  TDM \t PidName\n"
        "       4242      4242 \t  37% \t   0% \t   0% \t   0% \t  37% \t   0% \t python train.py\n"
        "         17         0 \t 100% \t   0% \t   0% \t   0% \t 100% \t   0% \t (null)\n"
        "garbage row\n");
    ASSERT_TRUE(g2.ok()) << g2.error();
    ASSERT_EQ(g2->size(), 2u);
    const ProcessUtilization& row = (*g2)[0];
    EXPECT_EQ(row.pid, 4242);
    EXPECT_EQ(row.total_percent, 37.0);
    ASSERT_EQ(row.engines.size(), 5u);
    EXPECT_EQ(row.engines[3], (EngineUtilization{"CDM", 37.0}));
    EXPECT_EQ(row.name, "python train.py");  // a name with a space
    EXPECT_EQ((*g2)[1].name, "(null)");
    const auto field = parse_proc_util(
        "device:    (0, 128)\n\tPid \t VPid \t Total \t   2D \t   TA \t   3D \t  CMP \t  TRANSFER \t PidName\n");
    ASSERT_TRUE(field.ok());
    EXPECT_TRUE(field->empty());  // the S5000 capture: a header, no rows
    EXPECT_FALSE(parse_proc_util("mtgpu_proc_util_connect error, try again!\n").ok());
}

TEST(DriverNames, HexDirectoriesAndMiscDevices) {
    EXPECT_EQ(gpu_directory_number("gpu00"), 0);
    EXPECT_EQ(gpu_directory_number("gpu0a"), 10);
    EXPECT_EQ(gpu_directory_number("gpu100"), 256);
    EXPECT_FALSE(gpu_directory_number("gpu"));
    EXPECT_FALSE(gpu_directory_number("gpu0A"));  // the driver prints lowercase
    EXPECT_FALSE(gpu_directory_number("mtlink"));
    EXPECT_EQ(misc_device_number("mtgpu.3\n"), 3);
    EXPECT_FALSE(misc_device_number("mtgpu.unknown\n"));
    EXPECT_FALSE(misc_device_number("card0"));
}
