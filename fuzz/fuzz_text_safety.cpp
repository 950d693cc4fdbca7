// Untrusted text on its way to a terminal or a JSON reader: after sanitising no
// control or format character may remain, and JSON must stay ASCII.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "musatop/output/json_output.hpp"
#include "musatop/output/sanitize.hpp"
#include "musatop/util/utf8.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const std::string safe = musatop::sanitize(text);
    for (char32_t cp : musatop::utf8::decode(safe))
        if (musatop::is_unsafe_code_point(cp)) std::abort();
    (void)musatop::fit_right(safe, static_cast<int>(size % 40));
    musatop::Snapshot snapshot;
    snapshot.host.hostname = text;
    snapshot.errors = {text};
    for (unsigned char c : musatop::render_json(snapshot))
        if (c >= 0x80) std::abort();
    return 0;
}
