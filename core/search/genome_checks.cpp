#include "search/genome_checks.hpp"

#include <vector>

namespace sparsemap::search {

bool spatialFanoutFits(const GenomeLayout& layout, std::span<const int> genome)
{
    const auto& slots = layout.mappingLevels();
    const auto& arch = layout.architecture();
    std::vector<std::int64_t> used(static_cast<std::size_t>(arch.levelCount()), 1);
    const auto tiling = layout.segment(GeneSegment::Tiling);
    for (int i = tiling.begin; i < tiling.end; ++i) {
        const auto& slot = slots[static_cast<std::size_t>(genome[i] - 1)];
        if (slot.kind == LoopKind::Spatial)
            used[static_cast<std::size_t>(slot.storageLevel)] *= layout.gene(i).factor;
    }
    for (int s = 0; s < arch.levelCount(); ++s)
        if (used[static_cast<std::size_t>(s)] > arch.fanout(s))
            return false;
    return true;
}

} // namespace sparsemap::search
