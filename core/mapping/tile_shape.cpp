#include "mapping/tile_shape.hpp"

namespace sparsemap {

std::vector<std::int64_t> dimTileSizes(const Mapping& mapping, int dimCount, int storageLevel)
{
    std::vector<std::int64_t> sizes;
    dimTileSizesInto(mapping, dimCount, storageLevel, sizes);
    return sizes;
}

void dimTileSizesInto(const Mapping& mapping, int dimCount, int storageLevel, std::vector<std::int64_t>& out)
{
    out.assign(static_cast<std::size_t>(dimCount), 1);
    for (const auto& level : mapping.levels)
        if (level.storageLevel >= storageLevel)
            for (int d = 0; d < dimCount; ++d)
                out[d] *= level.bounds[d];
}

std::vector<std::int64_t> rankExtents(const Workload& workload, int tensor,
                                      const std::vector<std::int64_t>& dimTiles)
{
    std::vector<std::int64_t> extents;
    rankExtentsInto(workload, tensor, dimTiles, extents);
    return extents;
}

void rankExtentsInto(const Workload& workload, int tensor, const std::vector<std::int64_t>& dimTiles,
                     std::vector<std::int64_t>& out)
{
    const auto& ranks = workload.tensors.at(tensor).ranks;
    out.clear();
    for (const auto& rank : ranks) {
        std::int64_t extent = 1;
        for (const auto& term : rank)
            extent += term.coefficient * (dimTiles[term.dim] - 1);
        out.push_back(extent);
    }
}

std::int64_t tileVolume(const std::vector<std::int64_t>& extents)
{
    std::int64_t v = 1;
    for (auto e : extents)
        v *= e;
    return v;
}

} // namespace sparsemap
