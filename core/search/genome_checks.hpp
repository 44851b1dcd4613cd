#pragma once
// Cheap structural checks of a genome that need no model evaluation: what a mapper can rule out
// before it spends an evaluation (Timeloop's pre-evaluation check).
#include "genome/genome_layout.hpp"

#include <functional>
#include <span>

namespace sparsemap::search {

// True when, for every storage level, the product of the bounds of its spatial mapping levels
// fits the level's fan-out (Architecture::fanout) and the spatial loops split over Timeloop's meshes
// (mapping/spatial_split): the cheap checks Sparseloop's mapper applies before it evaluates a mapping.
bool spatialFanoutFits(const GenomeLayout& layout, std::span<const int> genome);

// A check random draws must pass, which may first repair the draw in place (e.g. put its format genes
// in an order Sparseloop can represent); empty = every genome is admissible as drawn.
using Admissible = std::function<bool(Genome&)>;

} // namespace sparsemap::search
