#include "fake_gmi_data.hpp"

namespace musatop::testing {

std::string gmi_process_table(const std::vector<FakeProcessRow>& rows) {
    std::string text =
        "Processes:\nID   PID           Process name                           GPU Memory\n"
        "                                                               Usage\n"
        "+-------------------------------------------------------------------+\n";
    if (rows.empty()) text += "   No running processes found\n";
    for (const auto& row : rows)
        text += std::to_string(row.gpu) + "    " + std::to_string(row.pid) + "         " + row.name + "      " +
                std::to_string(row.memory_mib) + "MiB\n";
    return text + "---------------------------------------------------------------------\n";
}

std::string gmi_device_json(int count, const std::string& util, const std::string& used,
                            const std::string& uuid_prefix) {
    std::string json =
        "{\"Driver Version\": \"test-driver\", \"Attached GPUs\": \"" + std::to_string(count) + "\", \"GPU\": [";
    for (int i = 0; i < count; ++i) {
        const std::string index = std::to_string(i);
        json += std::string(i ? "," : "") + "{\"Index\": \"" + index + "\", \"Product Name\": \"MTT-S5000-" + index +
                "\", \"GPU UUID\": \"" + uuid_prefix + index + "\", \"PCI\": {\"Bus ID\": \"00000000:0" + index +
                ":00.0\"}, \"FB Memory Usage\": {\"Total\": \"81920MiB\", \"Used\": \"" + used +
                "\"}, \"Utilization\": {\"Gpu\": \"" + util +
                "\"}, \"Temperature\": {\"GPU Current Temp\": \"40C\"}, "
                "\"Power Readings\": {\"Power Draw \": \"120W\", \"Current Power Limit\": \"300W\"}}";
    }
    return json + "]}";
}

}  // namespace musatop::testing
