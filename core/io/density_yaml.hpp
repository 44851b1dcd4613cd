#pragma once
// The `density` value of an input tensor in a workload file: a number (uniform) or a map with a
// `model` key (docs/file-formats.md, "Density models").
#include "io/yaml_reader.hpp"
#include "workload/density.hpp"

#include <optional>
#include <string>

namespace sparsemap::detail {

// Reports every problem at its own line; nullopt when the value is unusable. An `actual` file is
// resolved against `baseDir` into DensitySpec::resolvedFile, must exist, and is read into
// DensitySpec::data (io/nonzero_pattern_io.hpp).
std::optional<DensitySpec> readDensity(const YamlReader& reader, const std::string& baseDir);

// The shortest form: a bare number for uniform, a flow map otherwise.
void emitDensity(YAML::Emitter& out, const DensitySpec& spec);

} // namespace sparsemap::detail
