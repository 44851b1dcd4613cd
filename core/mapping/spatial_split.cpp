#include "mapping/spatial_split.hpp"

namespace sparsemap {

std::int64_t timeloopMeshX(const Architecture& arch, int level)
{
    const bool compute = level >= arch.levelCount();
    const std::int64_t meshX = compute ? arch.compute.meshX : arch.levels[level].meshX;
    return meshX > 0 ? meshX : (compute ? arch.compute.instances : arch.levels[level].instances);
}

GridFanout gridFanout(const Architecture& arch, int level)
{
    const auto instances = [&](int l) {
        return l >= arch.levelCount() ? arch.compute.instances : arch.levels[l].instances;
    };
    const std::int64_t parentX = timeloopMeshX(arch, level), childX = timeloopMeshX(arch, level + 1);
    const std::int64_t parentY = parentX > 0 ? instances(level) / parentX : 0;
    const std::int64_t childY = childX > 0 ? instances(level + 1) / childX : 0;
    return {parentX > 0 ? childX / parentX : 0, parentY > 0 ? childY / parentY : 0};
}

std::optional<std::vector<int>> spatialSplitDims(const MappingLevel& level, GridFanout fan)
{
    std::vector<int> loops; // dims with bound > 1
    for (std::size_t d = 0; d < level.bounds.size(); ++d)
        if (level.bounds[d] > 1)
            loops.push_back(static_cast<int>(d));
    const int n = static_cast<int>(loops.size());
    std::int64_t bestX = -1;
    unsigned bestMask = 0;
    for (unsigned mask = 0; mask < (1u << n); ++mask) {
        std::int64_t x = 1, y = 1;
        for (int i = 0; i < n; ++i)
            ((mask >> i) & 1u ? x : y) *= level.bounds[loops[i]];
        if (x <= fan.x && y <= fan.y && x > bestX) {
            bestX = x;
            bestMask = mask;
        }
    }
    if (bestX < 0)
        return std::nullopt;
    std::vector<int> along;
    for (int i = 0; i < n; ++i)
        if ((bestMask >> i) & 1u)
            along.push_back(loops[i]);
    return along;
}

std::optional<MappingLevel> withSpatialSplit(const MappingLevel& level, GridFanout fan)
{
    if (level.spatialXLoops >= 0)
        return level;
    const auto alongX = spatialSplitDims(level, fan);
    if (!alongX)
        return std::nullopt;
    MappingLevel out = level;
    out.order.clear();
    const auto isX = [&](int d) {
        for (int x : *alongX)
            if (x == d)
                return true;
        return false;
    };
    for (int d : level.order)
        if (!isX(d))
            out.order.push_back(d);
    for (int d : level.order)
        if (isX(d))
            out.order.push_back(d);
    out.spatialXLoops = static_cast<int>(alongX->size());
    return out;
}

} // namespace sparsemap
