#pragma once
// The stages of importSparseloopCase, one per section of the input (internal). Each reports its
// problems into the DiagnosticSink of the file it reads and returns what it could read.
#include "io/sparseloop/sparseloop_case.hpp"
#include "io/yaml_reader.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sparsemap::detail {

// `PE[0..255]` -> `PE`; every `[..]` group is removed.
std::string stripRanges(std::string_view name);
// Instances a v0.3 name stands for: the product of its `[a..b]` ranges (b - a + 1 each), 1 without
// ranges; nullopt for a malformed range.
std::optional<std::int64_t> rangeCount(std::string_view name);
// The component an ERT table belongs to: the last dotted part without ranges
// (`system.SM.Subpartition[0..3].RF` -> `RF`).
std::string ertComponentName(std::string_view tableName);

// `architecture` (the v0.3 tree) with `compound_components` for class defaults (may be null).
// Fills case.architecture (energies empty) and case.levels; adds notes.
void readSparseloopArchitecture(const YamlReader& architecture, const std::optional<YamlReader>& compounds,
                                SparseloopCase& out);
// `problem` -> case.workload.
void readSparseloopProblem(const YamlReader& problem, SparseloopCase& out);
// The root of ERT.yaml -> the energy tables of case.architecture.
void readSparseloopErt(const YamlReader& root, SparseloopCase& out);
// The `mapping` list -> case.mapping; `mappingKey` is where a factor-product mismatch is reported.
void readSparseloopMapping(const YamlReader& mapping, const YamlReader& mappingKey, SparseloopCase& out);
// `sparse_optimizations` (may be absent) -> case.sparse, case.actionOptimizations, compute optimization.
void readSparseloopSparse(const std::optional<YamlReader>& sparse, SparseloopCase& out);

// Adds `note` unless it is already there (several levels can give the same one).
void addNote(SparseloopCase& out, const std::string& note);

} // namespace sparsemap::detail
