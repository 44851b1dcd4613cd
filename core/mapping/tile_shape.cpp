#include "mapping/tile_shape.hpp"

namespace sparsemap {

std::vector<std::int64_t> dimTileSizes(const Mapping& mapping, int dimCount, int storageLevel)
{
    std::vector<std::int64_t> sizes(static_cast<std::size_t>(dimCount), 1);
    for (const auto& level : mapping.levels)
        if (level.storageLevel >= storageLevel)
            for (int d = 0; d < dimCount; ++d)
                sizes[d] *= level.bounds[d];
    return sizes;
}

std::vector<std::int64_t> rankExtents(const Workload& workload, int tensor,
                                      const std::vector<std::int64_t>& dimTiles)
{
    const auto& ranks = workload.tensors.at(tensor).ranks;
    std::vector<std::int64_t> extents;
    extents.reserve(ranks.size());
    for (const auto& rank : ranks) {
        std::int64_t extent = 1;
        for (const auto& term : rank)
            extent += term.coefficient * (dimTiles[term.dim] - 1);
        extents.push_back(extent);
    }
    return extents;
}

std::int64_t tileVolume(const std::vector<std::int64_t>& extents)
{
    std::int64_t v = 1;
    for (auto e : extents)
        v *= e;
    return v;
}

} // namespace sparsemap
