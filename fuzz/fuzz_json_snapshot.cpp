// A snapshot document from a remote node or a recording: any bytes. Whatever
// parses must render and parse back to the same document.
#include <cstddef>
#include <cstdint>
#include <string>

#include "musatop/output/json_input.hpp"
#include "musatop/output/json_output.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const auto parsed = musatop::parse_json_snapshot(text);
    if (!parsed.ok()) return 0;
    const std::string rendered = musatop::render_json(parsed.value());
    const auto again = musatop::parse_json_snapshot(rendered);
    if (!again.ok() || musatop::render_json(again.value()) != rendered) __builtin_trap();
    return 0;
}
