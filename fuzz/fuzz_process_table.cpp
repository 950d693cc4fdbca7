// The "Processes:" table of the plain summary.
#include <cstdint>
#include <string>

#include "musatop/collection/gmi/process_table.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    (void)musatop::gmi::parse_process_table(std::string(reinterpret_cast<const char*>(data), size));
    return 0;
}
