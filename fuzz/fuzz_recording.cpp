// A recording file: any bytes (a damaged disk, a wrong file, a crafted one).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "musatop/replay/recording.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    if (const auto text = musatop::replay::gunzip(bytes); text.ok())
        (void)musatop::replay::parse_recording(text.value(), "fuzz");
    (void)musatop::replay::parse_recording(bytes, "fuzz");  // the decompressed form too
    return 0;
}
