// The sampler against the fake GMI at 0.05 s for 1500 rounds: nothing may grow.
// Its own binary (ctest label `soak`): it takes over a minute.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <filesystem>

#include "musatop/collection/local_source.hpp"
#include "musatop/sampler/sampler.hpp"
#include "test_support.hpp"

using namespace musatop;
using namespace std::chrono_literals;
using musatop::testing::wait_for;

namespace {

// GCC says __SANITIZE_ADDRESS__; clang (the asan preset's compiler) says it through __has_feature.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kUnderAddressSanitizer = true;
#elif defined(__has_feature)
constexpr bool kUnderAddressSanitizer = __has_feature(address_sanitizer);
#else
constexpr bool kUnderAddressSanitizer = false;
#endif

long status_field(const std::string& field) {
    const std::string status = musatop::testing::read_text("/proc/self/status");
    const auto at = status.find(field + ":");
    return std::stol(status.substr(at + field.size() + 1));
}

std::size_t open_fds() {
    std::size_t n = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) ++n;
    return n;
}

}  // namespace

TEST(SamplerSoak, FastSamplingAgainstTheFakeGmiDoesNotGrow) {
    musatop::testing::TempDir dir;
    ::setenv("FAKE_GMI_DIR", dir.path().c_str(), 1);
    musatop::testing::write_text(dir / "query.out", musatop::testing::fixture("gmi_query.json"));
    musatop::testing::write_text(dir / "summary.out", musatop::testing::fixture("gmi_processes.txt"));
    gmi::GmiSettings gmi_settings;
    gmi_settings.executable = MUSATOP_FAKE_GMI;
    SamplerSettings settings;
    settings.interval = 50ms;
    Sampler sampler(std::make_unique<LocalSource>(gmi_settings), settings);
    // Descriptors are compared at rest (a round in flight holds its pipes).
    const std::size_t fds_at_rest = open_fds();
    const long threads_before = status_field("Threads");
    sampler.start();
    ASSERT_TRUE(wait_for([&] { return sampler.revision() >= 100; }, 120s));
    const long threads_running = status_field("Threads");
    const long rss_kib = status_field("VmRSS");
    ASSERT_TRUE(wait_for([&] { return sampler.revision() >= 1500; }, 600s));
    EXPECT_EQ(status_field("Threads"), threads_running);
    if (!kUnderAddressSanitizer) {  // its quarantine holds freed memory on purpose
        EXPECT_LT(status_field("VmRSS") - rss_kib, 2048) << "RSS grew by more than 2 MiB over 1400 samples";
    }
    const Frame frame = sampler.latest();
    EXPECT_TRUE(frame.snapshot->errors.empty());
    EXPECT_LE(frame.history->host()->size(), static_cast<std::size_t>(kHistorySeconds));
    sampler.stop();
    EXPECT_EQ(open_fds(), fds_at_rest);
    EXPECT_EQ(status_field("Threads"), threads_before);
    // Every fake GMI the sampler started has been reaped: no zombie children remain.
    EXPECT_EQ(::waitpid(-1, nullptr, WNOHANG), -1);
}
