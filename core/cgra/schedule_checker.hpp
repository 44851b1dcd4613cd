#pragma once
// Independent check of a schedule against the paper's scheduling constraints (Section 3.2):
//  (1) input dependencies have distance 0, output dependencies distance 1, internal ones >= 1;
//  (2) per modulo slot: readings (with multicast copies) <= M, writings <= N, PE nodes (operations and
//      COPs) <= N x M;
// plus what makes the graph compute the block: each multiplication fed once (by its channel's reading,
// a multicast copy or a COP of it), each bus feeding at most N PEs directly, every addition with two
// producers, and each kernel's writing receiving the sum of exactly its own multiplications.
#include "cgra/schedule.hpp"

#include <string>
#include <vector>

namespace sparsemap::cgra {

// Empty when the schedule is valid; otherwise one line per violation.
std::vector<std::string> checkSchedule(const Schedule& schedule, const SparseBlock& block,
                                       const CgraSpec& cgra);

} // namespace sparsemap::cgra
