// `mthreads-gmi -q --json` output: any bytes must give devices or an error.
#include <cstdint>
#include <string>

#include "musatop/collection/gmi/device_json.hpp"
#include "musatop/output/json_output.hpp"
#include "musatop/util/utf8.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text = musatop::utf8::repair(std::string(reinterpret_cast<const char*>(data), size));
    const auto result = musatop::gmi::parse_device_json(text);
    if (result.ok()) {
        musatop::Snapshot snapshot;
        snapshot.devices = result->devices;
        snapshot.driver_version = result->driver_version;
        (void)musatop::render_json(snapshot);
    }
    return 0;
}
