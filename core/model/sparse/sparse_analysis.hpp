#pragma once
// Step two of the model, as a named sequence of stages (docs/model-notes-sparse.md): bind formats
// to tiles, occupancy and access scaling per format, storage SAFs, compute. It turns the dense
// result into actual / gated / skipped data and metadata accesses and computes.
#include "model/evaluation_result.hpp"
#include "model/sparse/sparse_context.hpp"

#include <string>

namespace sparsemap::model {

// Returns why the design is invalid (a format that cannot hold the tile, UOP as the innermost rank,
// skipping without leader metadata, ...), or "". Every such problem is found before any cost (formats
// bound to tiles, then safStructureProblem): the design is malformed (EvaluationResult::malformed).
std::string analyzeSparse(const SparseContext& context, EvaluationResult& result, SparseScratch& scratch);

} // namespace sparsemap::model
