#include "search/genome_checks.hpp"

#include "mapping/spatial_fanout.hpp"

#include <vector>

namespace sparsemap::search {

std::vector<SpatialLoops> spatialLoopsOfGenome(const GenomeLayout& layout, std::span<const int> genome)
{
    const auto& slots = layout.mappingLevels();
    const std::size_t dims = layout.workload().dims.size();
    std::vector<SpatialLoops> spatial;
    std::vector<int> spatialOfSlot(slots.size(), -1);
    for (std::size_t k = 0; k < slots.size(); ++k)
        if (slots[k].kind == LoopKind::Spatial) {
            spatialOfSlot[k] = static_cast<int>(spatial.size());
            spatial.push_back({slots[k].storageLevel, std::vector<std::int64_t>(dims, 1), std::nullopt});
        }
    const auto tiling = layout.segment(GeneSegment::Tiling);
    for (int i = tiling.begin; i < tiling.end; ++i) {
        const auto slot = static_cast<std::size_t>(genome[static_cast<std::size_t>(i)] - 1);
        if (slots[slot].kind != LoopKind::Spatial)
            continue;
        const auto& gene = layout.gene(i);
        spatial[static_cast<std::size_t>(spatialOfSlot[slot])].bounds[static_cast<std::size_t>(gene.dim)] *=
            gene.factor;
    }
    return spatial;
}

bool spatialFanoutFits(const GenomeLayout& layout, std::span<const int> genome)
{
    return sparsemap::spatialFanoutFits(layout.architecture(), spatialLoopsOfGenome(layout, genome));
}

} // namespace sparsemap::search
