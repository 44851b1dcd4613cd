#pragma once
// Spec -> factory -> model: the runtime density model of one tensor from its DensitySpec (the plain
// data the workload file and the GUI edit).
#include "model/density/density_model.hpp"
#include "workload/density.hpp"

#include <memory>
#include <string>
#include <vector>

namespace sparsemap::model {

// `tensorExtents`: the extent of every rank of the tensor (workload rank order, outer to inner), each
// >= 1. Uniform -> hypergeometric with ceil(d * N) nonzeros; FixedStructured -> n/m exactly when
// structuredM > 0, else `density`; Banded -> bandwidth with in-band `density` (2-rank tensors);
// Actual -> the pattern of `data` (the file `resolvedFile`, or `file` when not resolved, as io read it).
// Throws InputError for an invalid spec, a shape the model cannot handle, or an unreadable / malformed /
// mismatched actual-data file (the error of the read is kept in `data`).
std::unique_ptr<DensityModel> makeDensityModel(const DensitySpec& spec,
                                               const std::vector<std::int64_t>& tensorExtents);

// The density an `actual` data pattern gives a tensor of these extents: its nonzeros / its elements.
// Throws InputError as makeDensityModel does (not the tensor's shape).
double actualDataDensity(const std::vector<std::int64_t>& tensorExtents, const NonzeroPattern& pattern);

// Outputs and tensors without a density entry: fixed-structured at density 1 (spec §2.1).
std::unique_ptr<DensityModel> makeDenseModel(const std::vector<std::int64_t>& tensorExtents);

} // namespace sparsemap::model
