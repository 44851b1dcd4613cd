#pragma once
// The energy-delay Pareto front of a run: its valid designs that no other valid design beats on
// both cycles and energy (a design dominates another when it is no worse on both and better on one).
// Answers "what is the fastest design under X uJ": walk the front from the fastest down.
#include "search/search_types.hpp"

#include <cstdint>
#include <vector>

namespace sparsemap::analysis {

// Indices into `points` of the front, fastest first (cycles ascending, so energy descending).
// Invalid points and points with a non-finite or negative metric are left out; of designs with
// exactly the same cycles and energy only the first evaluated is kept. O(n log n).
std::vector<std::int64_t> paretoFront(const search::PointLog& points);

// The fastest point of the front whose energy is at most `maxEnergyPj`, or -1 when none is.
std::int64_t fastestUnderEnergy(const search::PointLog& points, const std::vector<std::int64_t>& front,
                                double maxEnergyPj);

} // namespace sparsemap::analysis
