#include <gtest/gtest.h>

#include "musatop/collection/gmi/device_json.hpp"
#include "test_support.hpp"

using namespace musatop;
using namespace musatop::gmi;

namespace {

DeviceQuery parse_ok(const std::string& text) {
    auto result = parse_device_json(text);
    EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error());
    return result.ok() ? result.value() : DeviceQuery{};
}

std::string parse_error(const std::string& text) {
    auto result = parse_device_json(text);
    EXPECT_FALSE(result.ok()) << text;
    return result.ok() ? "" : result.error();
}

Device with_power(const std::string& readings) {
    const auto query = parse_ok(R"({"GPU":[{"Index":"0","Power Readings":)" + readings + "}]}");
    return query.devices.empty() ? Device{} : query.devices[0];
}

}  // namespace

TEST(DeviceJson, ReferenceFixture) {
    const auto query = parse_ok(musatop::testing::fixture("gmi_query.json"));
    EXPECT_EQ(query.driver_version, "3.3.8-server");
    ASSERT_EQ(query.devices.size(), 2u);
    const Device& d0 = query.devices[0];
    EXPECT_EQ(d0.index, 0);
    EXPECT_EQ(d0.uuid, "fixture-gpu-0");
    EXPECT_EQ(d0.name, "X10000");
    EXPECT_EQ(d0.bus_id, "00000000:03:00.0");
    EXPECT_EQ(d0.memory_total_bytes, 81920LL << 20);
    EXPECT_EQ(d0.memory_used_bytes, 1LL << 30);
    EXPECT_EQ(d0.memory_free_bytes, 80896LL << 20);
    EXPECT_EQ(d0.gpu_utilization_percent, 42.0);
    EXPECT_EQ(d0.memory_utilization_percent, 19.0);
    EXPECT_EQ(d0.temperature_c, 34.0);
    EXPECT_EQ(d0.power_draw_w, 367.49);  // the "Power Draw " key with a trailing space
    EXPECT_EQ(d0.power_limit_w, 950.0);
    EXPECT_EQ(d0.graphics_clock_mhz, 1750.0);
    EXPECT_EQ(d0.memory_clock_mhz, 2500.0);
    const Device& d3 = query.devices[1];
    EXPECT_EQ(d3.index, 3);
    EXPECT_EQ(d3.gpu_utilization_percent, 0.0);  // a known zero stays zero
    EXPECT_FALSE(d3.memory_used_bytes);
    EXPECT_FALSE(d3.memory_utilization_percent);
    EXPECT_FALSE(d3.temperature_c);
    EXPECT_FALSE(d3.power_draw_w);
    EXPECT_EQ(d3.power_limit_reason, "Current power limit is not reported by GMI");
}

TEST(DeviceJson, RealAbridgedS5000Excerpt) {
    // "Attached GPUs" says 8 while the author kept 2 entries: read as 2 GPUs of 8
    // attached (the health rules call that a lost card).
    const auto abridged = parse_ok(musatop::testing::fixture("005-s5000-json-excerpt-drv3.3.5.json"));
    EXPECT_EQ(abridged.devices.size(), 2u);
    EXPECT_EQ(abridged.attached_gpus, 8);
    std::string repaired = musatop::testing::fixture("005-s5000-json-excerpt-drv3.3.5.json");
    repaired.replace(repaired.find("\"8\""), 3, "\"2\"");
    const auto query = parse_ok(repaired);
    ASSERT_EQ(query.devices.size(), 2u);
    EXPECT_EQ(query.devices[0].power_draw_w, 96.66);
    EXPECT_EQ(query.devices[0].power_limit_w, 950.0);
    EXPECT_EQ(query.devices[0].bus_id, "00000000:2a:00.0");
    EXPECT_EQ(query.devices[1].power_draw_w, 97.09);
    EXPECT_FALSE(query.devices[1].bus_id);  // no PCI section in the second entry
    EXPECT_EQ(query.devices[1].power_limit_reason, "Current power limit field is missing from GMI");
}

TEST(DeviceJson, MinimalEntryLeavesEverythingUnknown) {
    const auto query = parse_ok(R"({"GPU":[{"Index":0}]})");
    ASSERT_EQ(query.devices.size(), 1u);
    EXPECT_FALSE(query.devices[0].uuid);
    EXPECT_FALSE(query.devices[0].memory_total_bytes);
    EXPECT_EQ(query.devices[0].power_limit_reason, "Current power limit field is missing from GMI");
}

TEST(DeviceJson, ZeroGpusIsValid) { EXPECT_TRUE(parse_ok(R"({"Attached GPUs":"0","GPU":[]})").devices.empty()); }

TEST(DeviceJson, PowerLimitRules) {
    EXPECT_EQ(with_power(R"({"Power Limit":"950W"})").power_limit_w, 950.0);
    EXPECT_EQ(with_power(R"({"Power Limit":"950W"," current power limit ":"800 W"})").power_limit_w, 800.0);
    const Device default_only = with_power(R"({"Default Power Limit":"950W"})");
    EXPECT_FALSE(default_only.power_limit_w);
    EXPECT_EQ(default_only.power_limit_reason, "Current power limit field is missing from GMI");
    for (const char* bad :
         {R"("N/A")", R"("[Not Supported]")", "null", R"("0W")", "0", R"("-1W")", R"("NaNW")", R"("bad")"}) {
        const Device d = with_power(std::string(R"({"Power Draw ":"410W","Current Power Limit":)") + bad +
                                    R"(,"Power Limit":"950W","Default Power Limit":"950W","Max Power Limit":"1000W"})");
        EXPECT_FALSE(d.power_limit_w) << bad;
        ASSERT_TRUE(d.power_limit_reason) << bad;
        EXPECT_FALSE(d.power_limit_reason->empty());
        EXPECT_EQ(d.power_draw_w, 410.0) << bad;
    }
    EXPECT_EQ(with_power(R"({"Current Power Limit":"N/A"})").power_limit_reason,
              "Current power limit is not reported by GMI");
    EXPECT_EQ(with_power(R"({"Current Power Limit":"bad"})").power_limit_reason,
              "GMI returned an invalid current power limit");
    EXPECT_EQ(with_power(R"({"Current Power Limit":null})").power_limit_reason,
              "Current power limit field is missing from GMI");
}

TEST(DeviceJson, CorruptShapesAreErrorsNeverEmpty) {
    EXPECT_EQ(parse_error("not JSON").rfind("invalid GMI JSON: ", 0), 0u);
    EXPECT_EQ(parse_error("[]"), "invalid GMI JSON: expected an object");
    EXPECT_EQ(parse_error("{}"), "invalid GMI JSON: GPU must be an explicit list");
    EXPECT_EQ(parse_error(R"({"GPU":{}})"), "invalid GMI JSON: GPU must be an explicit list");
    EXPECT_EQ(parse_error(R"({"GPU":null})"), "invalid GMI JSON: GPU must be an explicit list");
    EXPECT_EQ(parse_error(R"({"GPU":[null]})"), "invalid GMI JSON: GPU entry must be an object");
    EXPECT_EQ(parse_error(R"({"GPU":[{}]})"), "invalid GMI JSON: GPU Index must be a nonnegative integer");
    for (const char* index : {"true", "-1", "1.5", R"("-1")", R"("1.5")", R"("")"})
        EXPECT_EQ(parse_error(std::string(R"({"GPU":[{"Index":)") + index + "}]}"),
                  "invalid GMI JSON: GPU Index must be a nonnegative integer")
            << index;
    EXPECT_EQ(parse_ok(R"({"Attached GPUs":"8","GPU":[]})").attached_gpus, 8);  // every card lost
    EXPECT_EQ(parse_error(R"({"Attached GPUs":"1","GPU":[{"Index":0},{"Index":1}]})"),
              "invalid GMI JSON: Attached GPUs does not match the GPU list");  // fewer than listed
    EXPECT_EQ(parse_error(R"({"Attached GPUs":"eight","GPU":[]})"),
              "invalid GMI JSON: Attached GPUs does not match the GPU list");
    EXPECT_EQ(parse_error(R"({"Attached GPUs":true,"GPU":[]})"),
              "invalid GMI JSON: Attached GPUs does not match the GPU list");
    EXPECT_EQ(parse_error(R"({"GPU":[{"Index":0},{"Index":"0"}]})"), "invalid GMI JSON: duplicate GPU Index 0");
}

// Found by fuzz_device_json: a number too large for a double threw out_of_range,
// which escaped the parser (crash input 42e242423).
TEST(DeviceJson, NumbersOutOfRangeAreInvalidJsonNotACrash) {
    EXPECT_EQ(parse_error("42e242423\n").rfind("invalid GMI JSON: ", 0), 0u);
    EXPECT_EQ(
        parse_error(R"({"GPU":[{"Index":0,"Temperature":{"GPU Current Temp":1e400}}]})").rfind("invalid GMI JSON: ", 0),
        0u);
}

TEST(DeviceJson, IndexSpellings) {
    const auto query = parse_ok(R"({"Attached GPUs":" 2 ","GPU":[{"Index":"007"},{"Index":" 2 "}]})");
    ASSERT_EQ(query.devices.size(), 2u);
    EXPECT_EQ(query.devices[0].index, 7);
    EXPECT_EQ(query.devices[1].index, 2);
    EXPECT_EQ(parse_ok(R"({"Attached GPUs":1,"GPU":[{"Index":0}]})").devices.size(), 1u);
}

TEST(DeviceJson, InvalidOptionalNumbersBecomeUnknown) {
    const auto query = parse_ok(
        R"({"GPU":[{"Index":"0","Utilization":{"Gpu":"101%"},"Power Readings":{"Power Draw":"NaNW"},
            "Temperature":{"GPU Current Temp":"-4C"},"FB Memory Usage":{"Used":"12iB","Total":"true"}}]})");
    const Device& d = query.devices[0];
    EXPECT_FALSE(d.gpu_utilization_percent);
    EXPECT_FALSE(d.power_draw_w);
    EXPECT_EQ(d.temperature_c, -4.0);
    EXPECT_FALSE(d.memory_used_bytes);
    EXPECT_FALSE(d.memory_total_bytes);
}

TEST(DeviceJson, DuplicateUuidsAreCaseInsensitiveButMissingOnesAreAllowed) {
    EXPECT_EQ(parse_error(R"({"GPU":[{"Index":0,"GPU UUID":"AbC"},{"Index":1,"UUID":"abc"}]})"),
              "invalid GMI JSON: duplicate GPU UUID");
    const auto query = parse_ok(R"({"GPU":[{"Index":0,"GPU UUID":"N/A"},{"Index":1,"GPU UUID":"N/A"}]})");
    EXPECT_FALSE(query.devices[0].uuid);
    EXPECT_FALSE(query.devices[1].uuid);
}

TEST(DeviceJson, FirstMatchingKeyInDocumentOrderWins) {
    const auto query = parse_ok(R"({"GPU":[{"Index":0,"product_name":"first","Product Name":"second"}]})");
    EXPECT_EQ(query.devices[0].name, "first");
}

TEST(DeviceJson, HealthFieldsWhereTheQNestingPutsThem) {
    const auto query = parse_ok(musatop::testing::fixture("gmi_query_health.json"));
    EXPECT_EQ(query.attached_gpus, 3);
    ASSERT_EQ(query.devices.size(), 2u);
    const Device& d0 = query.devices[0];
    EXPECT_EQ(d0.pcie_generation_current, 5);
    EXPECT_EQ(d0.pcie_generation_max, 5);
    EXPECT_EQ(d0.pcie_link_width_current, 16);
    EXPECT_EQ(d0.pcie_link_width_max, 16);
    EXPECT_EQ(d0.encoder_utilization_percent, 7.0);
    EXPECT_EQ(d0.decoder_utilization_percent, 3.0);
    EXPECT_EQ(d0.fan_speed_percent, 64.0);  // Fan0 is N/A: the first fan with a speed
    EXPECT_EQ(d0.graphics_clock_max_mhz, 1750.0);
    EXPECT_EQ(d0.memory_clock_max_mhz, 2500.0);
    EXPECT_EQ(d0.performance_state, "P0");
    EXPECT_EQ(d0.ecc_mode, "On-die, EDC");
    EXPECT_EQ(d0.retired_pages_single_bit, 2);
    EXPECT_EQ(d0.retired_pages_double_bit, 0);
    EXPECT_EQ(d0.retired_pages_pending, false);
    EXPECT_EQ(d0.serial_number, "MY10YL225BF06077");
    EXPECT_EQ(d0.bios_version, "4.3.41");
    const Device& d1 = query.devices[1];
    EXPECT_EQ(d1.pcie_generation_current, 3);
    EXPECT_EQ(d1.pcie_link_width_current, 4);
    EXPECT_FALSE(d1.encoder_utilization_percent);  // N/A is unknown, not 0
    EXPECT_EQ(d1.fan_speed_percent, 100.0);        // a plain "Speed" value
    EXPECT_EQ(d1.ecc_mode, "On-die, EDC");         // plain text instead of Current/Pending
    EXPECT_FALSE(d1.performance_state);
    EXPECT_EQ(d1.retired_pages_pending, true);
    // The real S5000 excerpt has identity but no link, fan or ECC sections.
    const auto real = parse_ok(musatop::testing::fixture("005-s5000-json-excerpt-drv3.3.5.json")).devices;
    EXPECT_EQ(real[1].serial_number, "MY10YL225BF06005");
    EXPECT_FALSE(real[0].pcie_link_width_current);
    EXPECT_FALSE(real[0].fan_speed_percent);
    EXPECT_FALSE(real[0].retired_pages_pending);
}
