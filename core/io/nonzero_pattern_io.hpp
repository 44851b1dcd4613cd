#pragma once
// Reading the data file of an `actual` density (spec §2.4) into its nonzero pattern:
//  * Matrix Market (.mtx, or any file starting with %%MatrixMarket): `matrix coordinate|array`,
//    `pattern|real|integer`, `general|symmetric|skew-symmetric`. Symmetric entries are mirrored; an
//    explicit zero value is not a nonzero; duplicate coordinates count once.
//  * a 0/1 mask: one matrix row per line, entries 0 or 1 separated by blanks; blank lines and lines
//    starting with # are skipped.
// Any problem (missing or unreadable file, bad header, malformed line, entry out of range, ragged mask)
// is an InputError whose diagnostic carries the path and the 1-based line (and column where known).
// Whether the pattern fits its tensor's shape is the model's check (model/density/actual_model).
#include "workload/density.hpp"
#include "workload/nonzero_pattern.hpp"

#include <memory>
#include <string>

namespace sparsemap {

// Throws InputError as above.
NonzeroPattern readNonzeroPattern(const std::string& path);

// Reads `path` once for a DensitySpec (DensitySpec::data): the pattern, or the InputError's diagnostics
// kept for whoever uses the density. Never throws InputError.
std::shared_ptr<const ActualData> loadActualData(const std::string& path);

// For an `actual` spec with a file: reads it (resolvedFile, else file) into spec.data. Other specs are
// left as they are.
void loadActualData(DensitySpec& spec);

} // namespace sparsemap
