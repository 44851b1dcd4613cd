#pragma once
// Design YAML (docs/file-formats.md): the genome with its decoded mapping, formats and S/G choices.
#include "design/design.hpp"
#include "design/design_metrics.hpp"
#include "genome/genome_layout.hpp"
#include "model/evaluator.hpp" // ModelOptions
#include "util/error.hpp"      // InputError, thrown by every loader here

#include <optional>
#include <string>

namespace sparsemap {

struct DesignDocument {
    std::string workloadName;
    std::string architectureName;
    GenomeOptions options;
    Genome genome;
    Design design;
    std::optional<DesignMetrics> metrics; // as recorded in the file (not re-evaluated)
    // The options the metrics were computed with (`model`; Sparseloop's rules when absent). Only the
    // occupancy confidence and the format space are recorded.
    model::ModelOptions modelOptions;
};

// Interprets the file against a workload and architecture given separately (its `inputs`, if any,
// are not read here: parseDesignInputs). A genome is decoded
// (and must agree with a mapping/formats/S-G section when those are present too); without a genome
// the mapping, formats and S/G are read and encoded. Throws InputError with file:line diagnostics.
DesignDocument parseDesignYaml(const std::string& text, const Workload& workload, const Architecture& arch,
                               const std::string& fileName = {});
DesignDocument loadDesignFile(const std::string& path, const Workload& workload, const Architecture& arch);
// The workload and architecture a design file embeds under `inputs` (every design file the workbench
// and `sparsemap` write has them): nullopt for a file without them. Each is read by its own file's
// reader (every rule applies; diagnostics name `design.inputs.workload...` in `fileName`); `baseDir`
// resolves a relative actual-data density file. Throws InputError.
struct DesignInputs {
    Workload workload;
    Architecture architecture;
};
std::optional<DesignInputs> parseDesignInputs(const std::string& text, const std::string& fileName = {},
                                              const std::string& baseDir = {});
std::optional<DesignInputs> loadDesignInputs(const std::string& path);
// `metrics`, when given, are written in a `metrics` section; `modelOptions` (those the metrics were
// computed with), when given and not Sparseloop's rules, in a `model` entry.
std::string designToYaml(const GenomeLayout& layout, const Genome& genome, const Design& design,
                         const DesignMetrics* metrics = nullptr,
                         const model::ModelOptions* modelOptions = nullptr);
void saveDesignFile(const GenomeLayout& layout, const Genome& genome, const Design& design,
                    const std::string& path, const DesignMetrics* metrics = nullptr,
                    const model::ModelOptions* modelOptions = nullptr);

} // namespace sparsemap
