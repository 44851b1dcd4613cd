#pragma once
// Reading a Sparseloop / Timeloop v0.3 case (the inputs of the reference runs in
// /work/shared/reference/sparseloop): the architecture tree, the problem, the mapping and the
// sparse optimizations from `aggregated_input.yaml` + `map.yaml`, and the energy per action from
// `ERT.yaml`. What is kept, assumed and dropped is listed in core/io/sparseloop/README.md; every
// problem is an InputError with file:line:column and the document path.
#include "io/sparseloop/sparseloop_case.hpp"
#include "util/error.hpp" // InputError, thrown by every function here

#include <string>

namespace sparsemap {

// `dir`/aggregated_input.yaml, `dir`/ERT.yaml and the mapping from `dir`/map.yaml, or from the
// `mapping` key of aggregated_input.yaml when there is no map.yaml (the form exportSparseloopCase
// writes). A mapping in both places is an error (which one Sparseloop used would be ambiguous).
SparseloopCase importSparseloopCase(const std::string& dir);

// The same from three files; `mapPath` may be empty (the mapping is then aggregated_input's).
SparseloopCase importSparseloopCase(const std::string& aggregatedInputPath, const std::string& mapPath,
                                    const std::string& ertPath);

} // namespace sparsemap
