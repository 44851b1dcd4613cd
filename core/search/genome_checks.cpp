#include "search/genome_checks.hpp"

#include "mapping/spatial_split.hpp"
#include "util/limits.hpp"

#include <vector>

namespace sparsemap::search {

bool spatialFanoutFits(const GenomeLayout& layout, std::span<const int> genome)
{
    const auto& slots = layout.mappingLevels();
    const auto& arch = layout.architecture();
    const std::size_t dims = layout.workload().dims.size();
    std::vector<std::int64_t> used(static_cast<std::size_t>(arch.levelCount()), 1);
    std::vector<SpatialLoops> spatial;
    std::vector<int> spatialOfSlot(slots.size(), -1);
    for (std::size_t k = 0; k < slots.size(); ++k)
        if (slots[k].kind == LoopKind::Spatial) {
            spatialOfSlot[k] = static_cast<int>(spatial.size());
            spatial.push_back({slots[k].storageLevel, std::vector<std::int64_t>(dims, 1), std::nullopt});
        }
    const auto tiling = layout.segment(GeneSegment::Tiling);
    for (int i = tiling.begin; i < tiling.end; ++i) {
        const auto slot = static_cast<std::size_t>(genome[i] - 1);
        if (slots[slot].kind != LoopKind::Spatial)
            continue;
        const auto& gene = layout.gene(i);
        auto& product = used[static_cast<std::size_t>(slots[slot].storageLevel)];
        product = saturatingMul(product, gene.factor); // an overflow does not fit either
        spatial[static_cast<std::size_t>(spatialOfSlot[slot])].bounds[static_cast<std::size_t>(gene.dim)] *=
            gene.factor;
    }
    for (int s = 0; s < arch.levelCount(); ++s)
        if (used[static_cast<std::size_t>(s)] > arch.fanout(s))
            return false;
    return splitSpatialLoops(arch, spatial).has_value();
}

} // namespace sparsemap::search
