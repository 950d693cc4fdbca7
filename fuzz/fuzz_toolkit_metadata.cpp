// The MUSA Toolkit's version.json.
#include <cstdint>
#include <string>

#include "musatop/collection/toolkit/toolkit_version.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    (void)musatop::toolkit::parse_toolkit_metadata(std::string(reinterpret_cast<const char*>(data), size));
    return 0;
}
