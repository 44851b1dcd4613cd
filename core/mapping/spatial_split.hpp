#pragma once
// The X/Y split of spatial loops over Timeloop's instance grids. Every level (and the compute) is a
// meshX x meshY grid (meshX as given, or the instance count when not given: one row, Timeloop's
// default); the children of one instance of storage level s form a (meshX(child) / meshX(s)) x
// (meshY(child) / meshY(s)) block. Timeloop places the spatial loops of `L<s>_S` along X (the `split`
// innermost loops of the permutation) and Y (the rest) and refuses a mapping whose X or Y product
// exceeds that block. A genome has no split: a design is one Timeloop can map when some split fits.
#include "arch/architecture.hpp"
#include "mapping/mapping.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace sparsemap {

struct GridFanout {
    std::int64_t x = 1, y = 1;
};
// Timeloop's meshX of storage level `level` (levelCount() = the compute).
std::int64_t timeloopMeshX(const Architecture& arch, int level);
// The block of children one instance of storage level `level` feeds.
GridFanout gridFanout(const Architecture& arch, int level);

// The dims of a spatial mapping level to place along X so that their product fits fan.x and the
// others' fan.y: of the fitting splits, the one with the largest X product (ties: the first in dim
// order). Loops of bound 1 are never placed. nullopt when no split fits.
std::optional<std::vector<int>> spatialSplitDims(const MappingLevel& level, GridFanout fan);

// The level with its X dims innermost in `order` and `spatialXLoops` set (Timeloop's split), or
// nullopt when no split fits. A level that already has a split is returned as is.
std::optional<MappingLevel> withSpatialSplit(const MappingLevel& level, GridFanout fan);

} // namespace sparsemap
