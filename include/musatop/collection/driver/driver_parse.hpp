// Pure parsers of the MUSA driver's procfs files (../shared/spec/musa-driver-files.md
// §4, §3, §2, §7): text or bytes in, values out. They tolerate every variant the
// spec lists (spellings, TABs, spacing, G1's single line, both event ABIs) and skip
// what they do not know rather than guess.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "musatop/model/driver_info.hpp"
#include "musatop/util/result.hpp"

namespace musatop::driver {

// `gpuNN/status`. An error only when nothing in the text is a status line.
Result<DriverStatus> parse_status(std::string_view text);

// `gpuNN/event_report`: the records of a ring read from offset 0. Empty slots,
// unknown versions and a trailing partial record are skipped.
std::vector<DriverEvent> parse_event_ring(std::string_view bytes);

// Each event once, keyed on uuid, id, pid and time (as HuaTuo's reader keys them),
// in ring order.
std::vector<DriverEvent> distinct_events(const std::vector<DriverEvent>& events);

// `gpuNN/proc_util`: columns mapped by the header's names. An error when there is
// no header line (the body of a failed read, or another file).
Result<std::vector<ProcessUtilization>> parse_proc_util(std::string_view text);

// "gpu0a" → 10; none for anything else ("gpu", "gpuxx", "mtlink").
std::optional<int> gpu_directory_number(std::string_view name);

// GMI writes "00000000:18:00.0", sysfs "0000:18:00.0": the same PCI function when
// domain, bus, device and function agree as numbers.
bool same_pci_function(std::string_view a, std::string_view b);

// "mtgpu.3\n" → 3; none for "mtgpu.unknown" or anything else.
std::optional<int> misc_device_number(std::string_view devname);

}  // namespace musatop::driver
