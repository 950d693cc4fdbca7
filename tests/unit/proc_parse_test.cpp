#include <gtest/gtest.h>

#include "musatop/collection/procfs/proc_parse.hpp"
#include "musatop/collection/procfs/proc_reader.hpp"

#include "test_support.hpp"

using namespace musatop::procfs;

TEST(ProcParse, StatWithSpacesAndParensInName) {
    const std::string text =
        "4242 (my (odd) name) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 1 0 123456 1000000 300 "
        "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n";
    const auto stat = parse_proc_stat(text);
    ASSERT_TRUE(stat);
    EXPECT_EQ(stat->comm, "my (odd) name");
    EXPECT_EQ(stat->state, 'S');
    EXPECT_EQ(stat->utime_ticks, 250u);
    EXPECT_EQ(stat->stime_ticks, 50u);
    EXPECT_EQ(stat->start_ticks, 123456u);
}

TEST(ProcParse, BrokenStatIsRejected) {
    EXPECT_FALSE(parse_proc_stat(""));
    EXPECT_FALSE(parse_proc_stat("12 (x) S 1 2 3"));
    EXPECT_FALSE(parse_proc_stat("12 x) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20"));
}

TEST(ProcParse, StatusUidAndStatm) {
    EXPECT_EQ(parse_status_real_uid("Name:\tsleep\nUid:\t1000\t1000\t1000\t1000\n"), 1000u);
    EXPECT_FALSE(parse_status_real_uid("Name:\tsleep\n"));
    EXPECT_EQ(parse_statm_resident_pages("5000 440 300 10 0 100 0\n"), 440u);
    EXPECT_FALSE(parse_statm_resident_pages("5000"));
}

TEST(ProcParse, CmdlineJoin) {
    EXPECT_EQ(join_cmdline(std::string("sleep\0"
                                       "300\0",
                                       10)),
              "sleep 300");
    EXPECT_EQ(join_cmdline(""), "");
    EXPECT_EQ(join_cmdline(std::string("a\0\0b\0", 5)), "a  b");
    // A command line past the bound is cut on a character boundary, and says so.
    EXPECT_EQ(join_cmdline(std::string(5000, 'x')), std::string(4093, 'x') + "\u2026");
    EXPECT_EQ(join_cmdline(std::string(5000, 'x')).size(), kMaxCommandBytes);
    EXPECT_EQ(join_cmdline("a\xc3\xa9"
                           "bcd",
                           5),
              "a\u2026");  // é is not split
    EXPECT_EQ(join_cmdline("abc", 3), "abc");
}

TEST(ProcParse, CpuTimesAndPercent) {
    const auto before = parse_cpu_times("cpu  100 0 100 700 100 0 0 0 50 0\ncpu0 1 2 3 4\nbtime 1700000000\n");
    ASSERT_TRUE(before);
    EXPECT_EQ(before->total_ticks, 1000u);
    EXPECT_EQ(before->busy_ticks, 200u);
    const auto after = parse_cpu_times("cpu  150 0 150 1500 200 0 0 0 0 0\n");
    ASSERT_TRUE(after);
    EXPECT_DOUBLE_EQ(cpu_percent_between(*before, *after), 10.0);
    EXPECT_DOUBLE_EQ(cpu_percent_between(*after, *after), 0.0);
    EXPECT_EQ(parse_boot_time("cpu 1 2 3 4\nbtime 1700000000\n"), 1700000000);
    EXPECT_FALSE(parse_cpu_times("intr 5\n"));
}

TEST(ProcParse, MeminfoUsesMemAvailable) {
    const auto info = parse_meminfo("MemTotal: 1000 kB\nMemFree: 100 kB\nMemAvailable: 600 kB\nBuffers: 50 kB\n");
    ASSERT_TRUE(info);
    EXPECT_EQ(info->total_bytes, 1024000);
    EXPECT_EQ(info->used_bytes, 400 * 1024);
    const auto old = parse_meminfo("MemTotal: 1000 kB\nMemFree: 100 kB\nBuffers: 50 kB\nCached: 200 kB\n");
    ASSERT_TRUE(old);
    EXPECT_EQ(old->used_bytes, 650 * 1024);
    EXPECT_FALSE(parse_meminfo("MemFree: 1 kB\n"));
}

// A bound is a bound: the driver's devname is read as 256 bytes (it returned 8 KiB,
// 742 of them /etc/shadow's through a planted tree).
TEST(ProcReader, NeverReadsPastTheBound) {
    musatop::testing::TempDir dir;
    musatop::testing::write_text(dir / "big", std::string(20000, 'x'));
    for (const std::size_t bound : {std::size_t{1}, std::size_t{256}, std::size_t{8192}, std::size_t{8193}}) {
        const auto read = read_file((dir / "big").string(), bound);
        ASSERT_TRUE(read.ok());
        EXPECT_EQ(read.content.size(), bound);
    }
    EXPECT_EQ(read_file((dir / "big").string()).content.size(), 20000u);
}

TEST(ProcParse, HidepidFromMountinfo) {
    const std::string plain = "22 1 0:21 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw\n";
    EXPECT_FALSE(mountinfo_hides_processes(plain));
    for (const char* option : {"hidepid=2", "hidepid=invisible", "hidepid=1", "hidepid=noaccess"})
        EXPECT_TRUE(
            mountinfo_hides_processes("1 0 8:1 / / rw - ext4 /dev/sda1 rw\n"
                                      "22 1 0:21 / /proc rw,nosuid shared:12 - proc proc rw," +
                                      std::string(option) + ",gid=10\n"))
            << option;
    // Another proc mount (a container's) is not this host's /proc.
    EXPECT_FALSE(mountinfo_hides_processes("30 1 0:40 / /srv/c/proc rw - proc proc rw,hidepid=2\n" + plain));
    EXPECT_FALSE(mountinfo_hides_processes("22 1 0:21 / /proc rw - proc proc rw,hidepid=0\n"));
}
