// Finds the MUSA Toolkit's version.json and reads musa_toolkits.version. Never runs
// anything and never guesses among several installations.
#pragma once

#include <optional>
#include <string>

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

// The metadata rules alone, for one version.json.
ToolkitVersion read_toolkit_metadata(const std::string& version_json_path);

bool is_valid_toolkit_version(const std::string& text);

}  // namespace musatop::toolkit
