// util/privilege applied to a run's options: what a root musatop acting for a less
// privileged user refuses (docs/portable.md, "Running as root and under sudo").
#pragma once

#include <optional>
#include <string>

#include "musatop/cli/options.hpp"
#include "musatop/cli/settings.hpp"
#include "musatop/util/privilege.hpp"

namespace musatop::cli {

// "running as root for UID 1000 (sudo)": the start of every refusal.
std::string acting_for(const privilege::Invoker& invoker);

// The config and state files the invoker controls are dropped from `paths` (each
// said in `warnings`); an explicit --config-file the invoker controls is an error.
std::optional<std::string> guard_setting_paths(const Options& options, const privilege::Invoker& invoker,
                                               SettingPaths& paths, std::vector<std::string>& warnings);

// Why this run must not go ahead (a GMI, driver tree or web config the invoker
// controls; a recording the invoker could not have written), or none.
std::optional<std::string> guard_options(const Options& options, const privilege::Invoker& invoker,
                                         const std::string& path_variable);

// Why --write-config must not write `path` for the invoker, or none.
std::optional<std::string> guard_write(const std::string& path, const privilege::Invoker& invoker);

}  // namespace musatop::cli
