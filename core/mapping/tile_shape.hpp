#pragma once
// The coordinate-space tile of a tensor held at a storage level: for each tensor rank, its extent
// given the loop bounds of the mapping levels at that storage level and inside it. An affine rank
// such as H = s*P + R spans s*(P_tile - 1) + R_tile coordinates (a sliding window).
#include "mapping/mapping.hpp"
#include "workload/workload.hpp"

#include <cstdint>
#include <vector>

namespace sparsemap {

// Product of the bounds of every dim over the mapping levels at `storageLevel` and inside it.
std::vector<std::int64_t> dimTileSizes(const Mapping& mapping, int dimCount, int storageLevel);
// The same into `out`, reusing its buffer (the model's hot path).
void dimTileSizesInto(const Mapping& mapping, int dimCount, int storageLevel, std::vector<std::int64_t>& out);
// Extent of every rank of `tensor` for the given per-dim tile sizes.
std::vector<std::int64_t> rankExtents(const Workload& workload, int tensor,
                                      const std::vector<std::int64_t>& dimTiles);
// The same into `out`, reusing its buffer.
void rankExtentsInto(const Workload& workload, int tensor, const std::vector<std::int64_t>& dimTiles,
                     std::vector<std::int64_t>& out);
// Number of coordinates in the tile (product of the rank extents).
std::int64_t tileVolume(const std::vector<std::int64_t>& extents);

} // namespace sparsemap
