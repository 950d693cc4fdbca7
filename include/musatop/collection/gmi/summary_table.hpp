// Parsers for the parts of the plain `mthreads-gmi` summary other than processes:
// the banner version line and the per-GPU device table. The device table is the
// fallback device source when `-q --json` fails or is not supported.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "musatop/model/snapshot.hpp"
#include "musatop/util/result.hpp"

namespace musatop::gmi {

struct BannerVersions {
    std::optional<std::string> gmi_version;
    std::optional<std::string> driver_version;
};

// "    mthreads-gmi:2.4.1           Driver Version:5.1.0-server" (spaces after the
// colons and the boxed "mthreads-gmi 2.3.3 ... Driver Version: x" are accepted).
BannerVersions parse_banner_versions(std::string_view summary);

// Output of `mthreads-gmi -v`, e.g. "mthreads-gmi version : 2.3.3".
std::optional<std::string> parse_version_output(std::string_view text);

// Devices with the fields the table has: index, name, bus id, %GPU, memory
// used(total), temperature, PCIe lanes current(max), Perf (wide layout) and ECC
// mode; everything else stays unknown.
Result<std::vector<Device>> parse_summary_devices(std::string_view summary);

}  // namespace musatop::gmi
