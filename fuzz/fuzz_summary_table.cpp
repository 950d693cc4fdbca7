// The device table and banner of the plain summary, and `mthreads-gmi -v`.
#include <cstdint>
#include <string>

#include "musatop/collection/gmi/summary_table.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    (void)musatop::gmi::parse_summary_devices(text);
    (void)musatop::gmi::parse_banner_versions(text);
    (void)musatop::gmi::parse_version_output(text);
    return 0;
}
