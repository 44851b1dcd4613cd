#pragma once
// Which loops form the ranks of a tensor's tile at a storage level: the loops with bound > 1 of the
// mapping levels at that storage level and inside it that index the tensor, outer to inner (by
// mapping level, then by the level's loop order). E.g. Fig. 13 of the SparseMap paper: P at DRAM has
// ranks M2, K4, K5.
#include "mapping/mapping.hpp"
#include "sparse/sparse_strategy.hpp"
#include "workload/workload.hpp"

namespace sparsemap {

// Ranks with format U; callers assign formats.
std::vector<FormatRank> tensorRanks(const Workload& workload, const Mapping& mapping, int tensor,
                                    int storageLevel);

// The same into `out` (reusing its storage).
void tensorRanksInto(const Workload& workload, const Mapping& mapping, int tensor, int storageLevel,
                     std::vector<FormatRank>& out);

// Rank name as in the paper: dim name + 1-based mapping level, e.g. "K4"; a rank declared without a
// loop (imported from Sparseloop) is "K" when its dim is known, else "?".
std::string rankName(const Workload& workload, const FormatRank& rank);

} // namespace sparsemap
