#pragma once
// Cheap structural checks of a genome that need no model evaluation: what a mapper can rule out
// before it spends an evaluation (Timeloop's pre-evaluation check). The rule itself is
// mapping/spatial_fanout's; here it is read straight off the tiling genes, without decoding.
#include "genome/genome_layout.hpp"
#include "mapping/spatial_split.hpp"

#include <functional>
#include <span>

namespace sparsemap::search {

// The spatial loops the genome's tiling genes put at each spatial mapping level (outer to inner).
std::vector<SpatialLoops> spatialLoopsOfGenome(const GenomeLayout& layout, std::span<const int> genome);

// True when the genome's spatial loops pass the dense spatial pre-check (mapping/spatial_fanout:
// every level's fan-out, Timeloop's meshes).
bool spatialFanoutFits(const GenomeLayout& layout, std::span<const int> genome);

// A check random draws must pass, which may first repair the draw in place (e.g. put its format genes
// in an order Sparseloop can represent); empty = every genome is admissible as drawn.
using Admissible = std::function<bool(Genome&)>;

} // namespace sparsemap::search
