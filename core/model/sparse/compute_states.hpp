#pragma once
// The compute step of sparse modelling (docs/model-notes-sparse.md §4.6-4.7): how many computes
// are actual, gated or skipped, from the operand states (nonzero, present zero, absent), the
// storage SAFs that reach compute, the compute site's gating/skipping, and position skipping.
#include "model/evaluation_result.hpp"
#include "model/sparse/gating_skipping.hpp"

namespace sparsemap::model {

void computeSparseComputes(const SparseContext& context, SparseScratch& scratch,
                           const ComputeSafEffects& effects, EvaluationResult& result);

} // namespace sparsemap::model
