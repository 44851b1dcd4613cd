#pragma once
// The workload the model evaluates (Evaluator::workload()): every dim at its padded size
// (ModelOptions::paddedSizes, empty = as given); input densities rescaled so that the padded tensor
// holds the same number of nonzeros (padding adds zeros). For showing a design the model evaluated
// without building an evaluator. Throws InputError when a padded tensor exceeds 2^53 points.
#include "workload/workload.hpp"

#include <cstdint>
#include <vector>

namespace sparsemap::model {

Workload paddedWorkload(const Workload& w, const std::vector<std::int64_t>& padded);

} // namespace sparsemap::model
