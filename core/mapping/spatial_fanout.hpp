#pragma once
// The dense spatial pre-check, in one place: whether a mapping's spatial loops fit the architecture
// before anything is evaluated (Timeloop's mapper rules a mapping out with it). Every storage level's
// instances spread a tile over at most Architecture::fanout children, and the spatial loops split
// over Timeloop's meshes (mapping/spatial_split). The genome pre-filter of the searches, the SAGE
// baseline, Mind Mappings' repair and the hardware view ask here. The model's own validity check
// (model/microarch/validity) is a different fact: the instances a design needs after spatial
// skipping, which can only be fewer.
#include "mapping/spatial_split.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace sparsemap {

// Per storage level (levelCount() entries), the children one instance's spatial loops spread a tile
// over: the product of the bounds of `loops` at that level, saturating at INT64_MAX.
std::vector<std::int64_t> spatialFanoutUse(const Architecture& arch, std::span<const SpatialLoops> loops);

// "" when `loops` pass the pre-check, else why not (the level and the numbers).
std::string spatialFanoutProblem(const Architecture& arch, std::span<const SpatialLoops> loops);
// The same answer without the text (for pre-filters that reject many draws).
bool spatialFanoutFits(const Architecture& arch, std::span<const SpatialLoops> loops);
// The same answer for loops given flat, as spatialSplitExists takes them (storage levels outer to
// inner in [0, levelCount()), `dims` bounds per level): the genome pre-filter's hot path, which
// allocates nothing for up to kSmallFanoutLevels levels.
inline constexpr std::size_t kSmallFanoutLevels = 32;
bool spatialFanoutFits(const Architecture& arch, std::span<const int> storageLevels,
                       std::span<const std::int64_t> bounds, int dims);

} // namespace sparsemap
