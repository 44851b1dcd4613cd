#include "search/genome_checks.hpp"

#include "mapping/spatial_fanout.hpp"
#include "util/limits.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace sparsemap::search {

namespace {

// Calls add(slot, dim, factor) for each prime factor the tiling genes place at a spatial mapping level.
template <typename Add>
void forSpatialFactors(const GenomeLayout& layout, std::span<const int> genome, Add add)
{
    const auto& slots = layout.mappingLevels();
    const auto tiling = layout.segment(GeneSegment::Tiling);
    for (int i = tiling.begin; i < tiling.end; ++i) {
        const auto slot = static_cast<std::size_t>(genome[static_cast<std::size_t>(i)] - 1);
        if (slots[slot].kind == LoopKind::Spatial)
            add(slot, static_cast<std::size_t>(layout.gene(i).dim), layout.gene(i).factor);
    }
}

} // namespace

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
    forSpatialFactors(layout, genome, [&](std::size_t slot, std::size_t dim, std::int64_t factor) {
        spatial[static_cast<std::size_t>(spatialOfSlot[slot])].bounds[dim] *= factor;
    });
    return spatial;
}

bool spatialFanoutFits(const GenomeLayout& layout, std::span<const int> genome)
{
    // The loops of spatialLoopsOfGenome, flat and on the stack (the pre-filter runs on every draw).
    constexpr std::size_t kSlots = 32, kDims = kMaxDims; // dims: at most kMaxDims (workloadProblems)
    const auto& slots = layout.mappingLevels();
    const Architecture& arch = layout.architecture();
    const std::size_t dims = layout.workload().dims.size();
    if (slots.size() > kSlots || dims > kDims)
        return sparsemap::spatialFanoutFits(arch, spatialLoopsOfGenome(layout, genome));
    std::array<int, kSlots> spatialOf, storage;
    std::size_t count = 0;
    for (std::size_t k = 0; k < slots.size(); ++k)
        if (slots[k].kind == LoopKind::Spatial) {
            spatialOf[k] = static_cast<int>(count);
            storage[count++] = slots[k].storageLevel;
        }
    std::array<std::int64_t, kSlots * kDims> bounds;
    std::fill_n(bounds.begin(), count * dims, std::int64_t{1});
    forSpatialFactors(layout, genome, [&](std::size_t slot, std::size_t dim, std::int64_t factor) {
        bounds[static_cast<std::size_t>(spatialOf[slot]) * dims + dim] *= factor;
    });
    return sparsemap::spatialFanoutFits(arch, std::span<const int>(storage.data(), count),
                                        std::span<const std::int64_t>(bounds.data(), count * dims),
                                        static_cast<int>(dims));
}

} // namespace sparsemap::search
