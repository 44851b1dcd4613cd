#pragma once
// Architecture YAML (docs/file-formats.md) and the built-in presets (resources/presets/*.yaml,
// compiled into the core).
#include "arch/architecture.hpp"
#include "util/error.hpp" // InputError, thrown by every loader here

#include <string>
#include <vector>

namespace sparsemap {

Architecture parseArchitectureYaml(const std::string& text, const std::string& fileName = {});
Architecture loadArchitectureFile(const std::string& path);
std::string architectureToYaml(const Architecture& arch);
void saveArchitectureFile(const Architecture& arch, const std::string& path);

// "edge", "mobile", "cloud" (the file names of resources/presets without .yaml).
std::vector<std::string> presetNames();
// Throws InputError listing the presets when `name` is not one.
Architecture loadPreset(const std::string& name);
// The YAML text of a preset, as shipped.
std::string presetYaml(const std::string& name);
// A preset name or a path to an architecture file.
Architecture loadArchitectureArgument(const std::string& presetOrPath);

} // namespace sparsemap
