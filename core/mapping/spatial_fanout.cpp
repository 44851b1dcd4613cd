#include "mapping/spatial_fanout.hpp"

#include "util/limits.hpp"

#include <array>

namespace sparsemap {

namespace {

// The first storage level whose use exceeds its fan-out, or -1; `use` receives every level's use.
int firstOverflow(const Architecture& arch, std::span<const SpatialLoops> loops,
                  std::vector<std::int64_t>& use)
{
    use = spatialFanoutUse(arch, loops);
    for (int s = 0; s < arch.levelCount(); ++s)
        if (use[static_cast<std::size_t>(s)] > arch.fanout(s))
            return s;
    return -1;
}

} // namespace

std::vector<std::int64_t> spatialFanoutUse(const Architecture& arch, std::span<const SpatialLoops> loops)
{
    std::vector<std::int64_t> use(static_cast<std::size_t>(arch.levelCount()), 1);
    for (const auto& level : loops) {
        if (level.storageLevel < 0 || level.storageLevel >= arch.levelCount())
            continue;
        auto& product = use[static_cast<std::size_t>(level.storageLevel)];
        for (auto bound : level.bounds)
            product = saturatingMul(product, bound); // an overflow does not fit either
    }
    return use;
}

std::string spatialFanoutProblem(const Architecture& arch, std::span<const SpatialLoops> loops)
{
    std::vector<std::int64_t> use;
    if (const int s = firstOverflow(arch, loops, use); s >= 0) {
        const bool last = s + 1 == arch.levelCount();
        return "the mapping spreads " + std::to_string(use[static_cast<std::size_t>(s)]) +
               " children below " + arch.levels[static_cast<std::size_t>(s)].name +
               ", the architecture has " + std::to_string(arch.fanout(s)) + " (" +
               (last ? arch.compute.name : arch.levels[static_cast<std::size_t>(s) + 1].name) +
               " per instance)";
    }
    if (!splitSpatialLoops(arch, loops))
        return "the spatial loops fit every level's fan-out but no split over X and Y fits Timeloop's "
               "meshes (meshX x meshY of every level below)";
    return {};
}

bool spatialFanoutFits(const Architecture& arch, std::span<const SpatialLoops> loops)
{
    std::vector<std::int64_t> use;
    return firstOverflow(arch, loops, use) < 0 && splitSpatialLoops(arch, loops).has_value();
}

bool spatialFanoutFits(const Architecture& arch, std::span<const int> storageLevels,
                       std::span<const std::int64_t> bounds, int dims)
{
    const int levels = arch.levelCount();
    if (static_cast<std::size_t>(levels) > kSmallFanoutLevels)
        return spatialFanoutFits(arch, spatialLoopsFromFlat(storageLevels, bounds, dims));
    std::array<std::int64_t, kSmallFanoutLevels> use;
    use.fill(1);
    for (std::size_t i = 0; i < storageLevels.size(); ++i) {
        if (storageLevels[i] < 0 || storageLevels[i] >= levels)
            continue; // as spatialFanoutUse
        auto& product = use[static_cast<std::size_t>(storageLevels[i])];
        for (int d = 0; d < dims; ++d)
            product = saturatingMul(product,
                                    bounds[i * static_cast<std::size_t>(dims) + static_cast<std::size_t>(d)]);
    }
    for (int s = 0; s < levels; ++s)
        if (use[static_cast<std::size_t>(s)] > arch.fanout(s))
            return false;
    return spatialSplitExists(arch, storageLevels, bounds, dims);
}

} // namespace sparsemap
