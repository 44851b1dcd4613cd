#pragma once
// Text rendering of a design in the style of the SparseMap paper's Fig. 4 and Fig. 13: one line per
// loop with bound > 1 (`for m2 in [0,4)`, `par-for n3 in [0,4)`), nested and grouped under the
// storage level whose tile they walk, the compute statement innermost, then the formats of every
// tensor at every storage level (`P: B(M2)-B(K4)-CP(K5)`) and the S/G choices in words.
#include "arch/architecture.hpp"
#include "design/design.hpp"
#include "workload/workload.hpp"

#include <string>

namespace sparsemap {

std::string renderLoopNest(const Workload& workload, const Architecture& arch, const Design& design);

// "Z[m,n] += P[m,k] * Q[k,n]" for the workload's tensors (inputs multiplied, output accumulated).
std::string einsumText(const Workload& workload);
// "B(M2)-B(K4)-CP(K5)", or "uncompressed" when every rank is U (or the tile is a single element).
std::string formatText(const Workload& workload, const TensorFormat& format);
// "Skip Q <- P", "Gate P <-> Q" (a pair of mirrored actions), several joined by "; ", or "none".
std::string sgText(const Workload& workload, const SgSite& site);
// "GLB", "PE buffer", or "compute".
std::string sgSiteName(const Architecture& arch, const SgSite& site);

} // namespace sparsemap
