#pragma once
// The `model` entry of a session's run and of a design file (docs/file-formats.md): the model options
// that go beyond Sparseloop's rules, `{occupancy_confidence: 0.9, format_space: nearest}`. It is written
// only when they are not Sparseloop's defaults (worst-case capacity, dead formats), so that default
// files stay as they were; absent, it reads as the defaults.
#include "io/yaml_reader.hpp"
#include "model/evaluator.hpp"

#include <yaml-cpp/yaml.h>

namespace sparsemap::detail {

// Writes `model: {...}` into the open map when `options` are not Sparseloop's defaults.
void emitModelOptions(YAML::Emitter& out, const model::ModelOptions& options);
// Reads the `model` key of `parent` (when present) into `options`; bad values are reported at their
// line and column and leave the option as it was.
void readModelOptions(const YamlReader& parent, model::ModelOptions& options);

} // namespace sparsemap::detail
