#pragma once
// The checks a mapping must pass before any model looks at it (issue 15: one pre-check for the model,
// the hardware view and the searches):
// - structure: every mapping level names a storage level of the architecture, has one bound and one
//   loop per workload dim, bounds >= 1, an order that is a permutation of the dims, and each dim's
//   bounds multiply to its size (for a genome's design: the padded size, as the layout pads);
// - the dense spatial pre-check of mapping/spatial_fanout (fan-out and Timeloop's meshes).
// Each returns "" when the mapping passes, else the first problem found, in words a user can act on.
#include "mapping/mapping.hpp"

#include <string>

namespace sparsemap {

std::string mappingStructureProblem(const Mapping& mapping, const Workload& workload,
                                    const Architecture& arch);

// Structure, then the spatial fan-out.
std::string mappingPreCheck(const Mapping& mapping, const Workload& workload, const Architecture& arch);

} // namespace sparsemap
