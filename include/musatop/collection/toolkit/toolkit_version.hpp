// Finds the MUSA Toolkit's version.json and reads musa_toolkits.version. Never runs
// anything and never guesses among several installations.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace musatop::toolkit {

struct ToolkitVersion {
    std::optional<std::string> version;
    std::optional<std::string> source;  // the version.json consulted
    std::optional<std::string> reason;  // why the version is unknown
};

struct SearchPlaces {
    std::optional<std::string> musa_home;  // $MUSA_HOME
    std::optional<std::string> musa_path;  // $MUSA_PATH
    std::optional<std::string> path;       // $PATH, searched for mcc
    std::optional<std::string> home;       // $HOME, for "~" in the variables above
    std::string default_root = "/usr/local/musa";
    std::string versioned_parent = "/usr/local";  // holds musa-<version> directories
};

SearchPlaces search_places_from_environment();

ToolkitVersion detect_toolkit_version(const SearchPlaces& places);

// The metadata rules for one version.json file.
ToolkitVersion read_toolkit_metadata(const std::string& version_json_path);

// The same rules on the file's content (pure): a version, or why there is none.
struct MetadataVersion {
    std::optional<std::string> version;
    std::string reason;
};
MetadataVersion parse_toolkit_metadata(std::string_view content);

bool is_valid_toolkit_version(const std::string& text);

}  // namespace musatop::toolkit
