#pragma once
// The X/Y split of spatial loops over Timeloop's instance grids. Every storage level and the compute
// is a meshX x meshY grid (meshX as given, else the instance count: one row, Timeloop's default).
// Timeloop places the spatial loops of each `L<s>_S` along X (the `split` innermost loops of the
// permutation) or Y (the rest) and, walking the nest top down, refuses a mapping when at some level
// the product of the X (Y) loops of every spatial level above it exceeds that level's meshX (meshY)
// (Sparseloop's "mapped X expansion ... exceeds hardware instances"). A genome has no split: its
// design is one Timeloop can map when some choice of splits fits at every level.
#include "arch/architecture.hpp"
#include "mapping/mapping.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace sparsemap {

struct Mesh {
    std::int64_t x = 1, y = 1;
};
// Timeloop's mesh of storage level `level` (levelCount() = the compute).
Mesh timeloopMesh(const Architecture& arch, int level);

// The spatial loops of one spatial mapping level, as the split search sees them.
struct SpatialLoops {
    int storageLevel = 0;                // the level whose instances feed these loops' children
    std::vector<std::int64_t> bounds;    // per dim
    std::optional<std::uint32_t> fixedX; // dims already placed along X (an imported split), as a mask
};

// Per entry of `levels` (outer to inner), the dims to place along X (a mask) so that every level's
// X and Y expansion fits its mesh; of the fitting choices, each level takes the largest X product
// it can (outer levels first; ties: the first in dim order). nullopt when no choice fits.
std::optional<std::vector<std::uint32_t>> splitSpatialLoops(const Architecture& arch,
                                                            std::span<const SpatialLoops> levels);

// Whether some split fits: splitSpatialLoops(arch, loops).has_value() for the spatial levels given as
// their storage levels (outer to inner) and per-dim bounds (row-major, `dims` per level), for the
// genome pre-check's hot path. Allocates nothing when no level has more than kSmallSplitDims
// non-unit bounds (larger cases build the loops and ask splitSpatialLoops).
inline constexpr int kSmallSplitDims = 8;
bool spatialSplitExists(const Architecture& arch, std::span<const int> storageLevels,
                        std::span<const std::int64_t> bounds, int dims);
// Loops given flat (as spatialSplitExists takes them) as SpatialLoops, without a split.
std::vector<SpatialLoops> spatialLoopsFromFlat(std::span<const int> storageLevels,
                                               std::span<const std::int64_t> bounds, int dims);

// Whether every spatial loop of `mapping` fits along X: at every level the product of the spatial
// bounds above it is within its meshX. Then the split search has nothing to decide (every loop goes
// along X, in the given order) and is skipped. Loops an imported split places along Y are not
// looked at: callers ask only about mappings without a split.
bool spatialLoopsFitAlongX(const Architecture& arch, const Mapping& mapping);

// Whether loop `order[orderIndex]` of `level` spreads along Y: a spatial level with a split, and the
// loop outside its `spatialXLoops` innermost ones.
inline bool loopAlongY(const MappingLevel& level, int orderIndex)
{
    return level.kind == LoopKind::Spatial && level.spatialXLoops >= 0 &&
           static_cast<int>(level.order.size()) - 1 - orderIndex >= level.spatialXLoops;
}

// The spatial mapping levels of `mapping`, outer to inner.
std::vector<SpatialLoops> spatialLoopsOf(const Mapping& mapping);
// splitSpatialLoops(arch, spatialLoopsOf(mapping)).has_value(), without allocating when no spatial
// level has more than kSmallSplitDims non-unit bounds (the model's hot path).
bool spatialSplitFits(const Architecture& arch, const Mapping& mapping);

// The mapping with every spatial level's X dims innermost in `order` and `spatialXLoops` set
// (Timeloop's split); levels that have a split keep it. nullopt when no split fits.
std::optional<Mapping> withSpatialSplits(const Architecture& arch, const Mapping& mapping);
// The same into `out` (reusing its buffers; the model's hot path); false, with `out` unspecified,
// when no split fits.
bool withSpatialSplitsInto(const Architecture& arch, const Mapping& mapping, Mapping& out);

// What withSpatialSplits gives when every spatial loop fits along X (spatialLoopsFitAlongX), without
// the search: each level without a split gets its non-trivial loops along X, innermost in order, and
// its trivial loops outermost.
void splitAllAlongX(Mapping& mapping);

} // namespace sparsemap
