#pragma once
// The fixed mapping of the "sage" baseline: a hand-style output-stationary mapping built from the
// layout, so that it adapts to any workload and architecture of the template.
//
// Construction (dims that index the output Z are "output dims", the others "reduction dims"):
//  1. Spatial levels, outer to inner (GLB -> PEs, then PE buffer -> MACs): output-dim prime factors,
//     largest first (ties: the dims in turn), each taken while the level's spatial product stays
//     within Architecture::fanout — the PE array, then the MACs, filled as far as the factors allow.
//  2. The innermost storage level's temporal level (the PE buffer): reduction factors, largest
//     first, while every buffer's dense tile stays within `bufferFill` of its capacity.
//  3. The on-chip temporal levels, inner to outer (PE buffer again, then GLB): all remaining factors,
//     largest first, under the same capacity rule (bigger tiles, more reuse close to the MACs).
//  4. The outermost level (DRAM): whatever is left.
//  Every level orders its loops output dims first and reduction dims innermost, so each output tile
//  stays in place while its whole reduction runs (output stationary).
// Dense tiles are used because the sparse strategy is what the search will change: with `bufferFill`
// = 0.5 half of each buffer is left for the metadata of whatever formats it picks.
#include "genome/genome_layout.hpp"

#include <vector>

namespace sparsemap::search {

// The permutation and tiling genes (the genome's mapping part, in genome order).
// Throws std::invalid_argument unless 0 < bufferFill <= 1.
std::vector<int> outputStationaryMappingGenes(const GenomeLayout& layout, double bufferFill = 0.5);

} // namespace sparsemap::search
