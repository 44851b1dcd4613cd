#pragma once
// Evaluating an imported Sparseloop case the way Sparseloop does: worst-case occupancy for capacity,
// the case's rank-binding order, and its action types (spatial and position skipping) in the design.
#include "io/sparseloop/sparseloop_case.hpp"
#include "model/evaluator.hpp"

namespace sparsemap::model {

ModelOptions sparseloopModelOptions(const SparseloopCase& c);
// The case's design with every action-optimization type made explicit for the model and every rank's
// metadata / payload word bits resolved as Sparseloop resolves them (level defaults, no fragmentation).
Design sparseloopDesign(const SparseloopCase& c);

} // namespace sparsemap::model
