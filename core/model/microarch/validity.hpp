#pragma once
// Micro-architectural validity (docs/model-notes-dataflow.md §5.1, model-notes-sparse.md §5.1):
// the spatial fan-out the mapping needs fits the instances, and every level's tiles (data plus
// metadata at the occupancy confidence) fit its capacity.
#include "model/evaluation_result.hpp"
#include "model/sparse/sparse_context.hpp"

#include <string>

namespace sparsemap::model {

// Returns the first violation as a sentence for the user, or "".
std::string checkCapacityAndFanout(const SparseContext& context, const EvaluationResult& result);

} // namespace sparsemap::model
