#include "model/dataflow/loop_nest.hpp"

#include "mapping/spatial_split.hpp"

namespace sparsemap::model {

void flattenLoops(const Mapping& mapping, std::vector<NestLoop>& out, bool includeTrivial)
{
    out.clear();
    // Mapping levels are outer to inner; walk them backwards. For one storage level the template
    // lists the temporal level before the spatial one, so walking backwards yields spatial
    // (inner) first, as Timeloop nests them.
    for (int l = mapping.levelCount() - 1; l >= 0; --l) {
        const auto& level = mapping.levels[l];
        const bool spatial = level.kind == LoopKind::Spatial;
        const int n = static_cast<int>(level.order.size());
        for (int i = n - 1; i >= 0; --i) {
            const int dim = level.order[i];
            const auto bound = level.bounds[dim];
            if (bound <= 1 && !includeTrivial)
                continue;
            out.push_back(NestLoop{dim, bound, level.storageLevel, spatial, loopAlongY(level, i)});
        }
    }
}

std::uint32_t relevantDims(const Workload& workload, int tensor)
{
    return workload.dimMask(tensor);
}

} // namespace sparsemap::model
