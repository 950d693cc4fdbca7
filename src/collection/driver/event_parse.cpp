// `gpuNN/event_report`: the binary ring of driver events (spec §3). Both record
// layouts, read little-endian from bytes that were read at offset 0.
#include <array>
#include <cstdio>
#include <cstring>

#include "musatop/collection/driver/driver_parse.hpp"

namespace musatop::driver {
namespace {

constexpr std::size_t kGen1Bytes = 128;
constexpr std::size_t kGen2Bytes = 256;

template <typename T>
T little(std::string_view bytes, std::size_t at) {
    T value = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i)
        value |= static_cast<T>(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
    return value;
}

// NUL-padded text: what lies between the padding, without the trailing newline.
std::string field_text(std::string_view bytes) {
    const auto first = bytes.find_first_not_of('\0');
    if (first == std::string_view::npos) return "";
    bytes.remove_prefix(first);
    bytes = bytes.substr(0, bytes.find('\0'));
    while (!bytes.empty() && (bytes.back() == '\n' || bytes.back() == '\r')) bytes.remove_suffix(1);
    return std::string(bytes);
}

// sbdf = (domain << 32) | (bus << 16) | (slot << 8) | function; 0 for no device.
std::optional<std::string> bus_id_of(std::uint64_t sbdf) {
    if (sbdf == 0) return std::nullopt;
    char text[32];
    std::snprintf(text, sizeof text, "%04x:%02x:%02x.%x", static_cast<unsigned>((sbdf >> 32) & 0xffff),
                  static_cast<unsigned>((sbdf >> 16) & 0xff), static_cast<unsigned>((sbdf >> 8) & 0xff),
                  static_cast<unsigned>(sbdf & 0xff));
    return std::string(text);
}

std::string uuid_of(std::string_view raw) {
    std::string out;
    static constexpr char kHex[] = "0123456789abcdef";
    for (std::size_t i = 0; i < raw.size(); ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
        const auto byte = static_cast<unsigned char>(raw[i]);
        out += kHex[byte >> 4];
        out += kHex[byte & 15];
    }
    return out;
}

// gen2: the XID's module (bits 24-31) and code name (spec §3.6 a).
struct XidModule {
    const char* name;
    std::array<const char*, 7> codes;  // code 1 first; "" past the known ones
};
constexpr std::array<XidModule, 11> kXidModules = {{
    {"DRIVER", {"GPU_INIT_FAILED"}},
    {"GPU", {"OVERRUN", "LOCKUP", "PAGE_FAULT", "FW_IPC_TIMEOUT", "MP_EXCEPTION", "HW_FAILED"}},
    {"MSS",
     {"SBE_ECC_ERROR", "UNCONTAINED_ECC_ERROR", "CONTAINED_ECC_ERROR", "ECC_COUNTER_OVERFLOW", "NEW_PAGE_RETIRED",
      "PAGE_RETIRED_FAILED", "AXI_ERROR"}},
    {"VPU", {}},
    {"DISP", {}},
    {"MTBIOS", {"GPU_FAN_ABNORMAL", "GPU_BIOS_TRAP", "GPU_TEMP_TOO_HIGH", "GPU_SHUTDOWN"}},
    {"PCIE", {"GPU_FALLEN_OFF_BUS"}},
    {"MTLINK", {"LINK_DOWN", "LINK_UP", "RECOVERY_FAILED", "LINK_DOWNGRADE"}},
    {"NOC", {}},
    {"AUDIO", {}},
    {"DMA", {"DMA_ERROR"}},
}};

// gen1: error_id → module and name (spec §3.6 b).
struct Gen1Code {
    std::uint32_t id;
    const char* module;
    const char* name;
};
constexpr std::array<Gen1Code, 21> kGen1Codes = {{
    {1, "PCIE", "BAR0_ACCESS_FAILED"},
    {2, "PCIE", "BAR2_ACCESS_FAILED"},
    {3, "PCIE", "BAR2_UNSTABLE"},
    {1001, "MT-LINK", "MTLINK_UP"},
    {1002, "MT-LINK", "MTLINK_DOWN"},
    {1003, "MT-LINK", "MTLINK_RECOVERY_FAILED"},
    {2001, "META", "NO_ACTIVE_CONNECTION"},
    {2002, "META", "DEVICE_STATUS_NOT_OK"},
    {2003, "META", "DEVICE_ERROR"},
    {2004, "META", "BOOT_FW_ERROR"},
    {3001, "DM", "GUILTY_LOCKUP"},
    {3002, "DM", "GUILTY_OVERRUN"},
    {4001, "DDR", "DDR_MEMFAULT"},
    {20001, "MMU", "MMU_FAULT"},
    {21001, "RESOURCE", "FREE_ERROR"},
    {22001, "HANDLE", "LOOK_UP_HANDLE_ERROR"},
    {23001, "RA", "RA_REQUEST_ALLOC_FAIL"},
    {24001, "BUILD_OPTION", "KMD_UMD_MISMATCH"},
    {25001, "GP_CMD", "GP_CMD_TIMEOUT"},
    {26001, "KCCB", "KCCB_TIMEOUT"},
    {27001, "CLEANUP_THREAD", "CLEANUP_ITEMS_DROPPED"},
}};

DriverEvent gen1_event(std::string_view slot) {
    DriverEvent e;
    e.generation = 1;
    e.id = little<std::uint32_t>(slot, 12);
    for (const auto& code : kGen1Codes)
        if (code.id == e.id) e.module = code.module, e.name = code.name;
    e.bus_id = bus_id_of(little<std::uint64_t>(slot, 16));
    e.time_seconds = static_cast<std::int64_t>(little<std::uint64_t>(slot, 24) & 0x7fffffffffffffffULL);
    e.text = field_text(slot.substr(56, 64));
    return e;
}

std::optional<DriverEvent> gen2_event(std::string_view slot) {
    if (little<std::uint16_t>(slot, 24) != 1) return std::nullopt;  // an XID info version we do not know
    DriverEvent e;
    e.generation = 2;
    e.uuid = uuid_of(slot.substr(8, 16));
    e.id = little<std::uint32_t>(slot, 28);
    const std::uint32_t module = e.id >> 24, code = e.id & 0xffffff;
    if (module < kXidModules.size()) {
        e.module = kXidModules[module].name;
        if (code >= 1 && code <= kXidModules[module].codes.size() && kXidModules[module].codes[code - 1])
            e.name = kXidModules[module].codes[code - 1];
    }
    const std::uint32_t bits = little<std::uint32_t>(slot, 32);
    if ((bits & 7) <= 3) e.scope = static_cast<EventScope>(bits & 7);
    if (((bits >> 3) & 7) <= 2) e.severity = static_cast<EventSeverity>((bits >> 3) & 7);
    e.time_seconds = static_cast<std::int64_t>(little<std::uint64_t>(slot, 40) & 0x7fffffffffffffffULL);
    e.bus_id = bus_id_of(little<std::uint64_t>(slot, 48));
    if (const auto pid = little<std::uint64_t>(slot, 56); pid != 0 && pid < (1ULL << 31))
        e.pid = static_cast<std::int64_t>(pid);
    e.text = field_text(slot.substr(64, 128));
    return e;
}

}  // namespace

std::vector<DriverEvent> distinct_events(const std::vector<DriverEvent>& events) {
    std::vector<DriverEvent> out;
    for (const auto& e : events) {
        bool seen = false;
        for (const auto& kept : out) seen = seen || same_event(kept, e);
        if (!seen) out.push_back(e);
    }
    return out;
}

std::vector<DriverEvent> parse_event_ring(std::string_view bytes) {
    std::vector<DriverEvent> events;
    std::size_t at = 0;
    // Empty slots are zeros: stepping 128 through them lands on every slot boundary
    // of either layout, since a gen2 record starts on a multiple of 256 bytes.
    while (at + kGen1Bytes <= bytes.size()) {
        const std::uint32_t type = little<std::uint32_t>(bytes, at);
        const std::uint32_t version = type >> 24;
        if (type == 0) {
            at += kGen1Bytes;
        } else if (type == 1) {
            events.push_back(gen1_event(bytes.substr(at, kGen1Bytes)));
            at += kGen1Bytes;
        } else if (version == 1 && at + kGen2Bytes <= bytes.size()) {
            if ((type & 0xffffff) == 1)  // an XID; other event types are skipped
                if (auto event = gen2_event(bytes.substr(at, kGen2Bytes))) events.push_back(std::move(*event));
            at += kGen2Bytes;
        } else {
            break;  // a layout we do not know, or a partial last record: its size is unknown
        }
    }
    return events;
}

}  // namespace musatop::driver
