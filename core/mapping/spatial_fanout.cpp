#include "mapping/spatial_fanout.hpp"

#include "util/limits.hpp"

#include <algorithm>
#include <array>

namespace sparsemap {

namespace {

// Multiplies one spatial level's bounds into the use of its storage level (a level out of range adds
// nothing), saturating at INT64_MAX: an overflow does not fit either.
void addUse(int storageLevel, std::span<const std::int64_t> bounds, std::span<std::int64_t> use)
{
    if (storageLevel < 0 || static_cast<std::size_t>(storageLevel) >= use.size())
        return;
    auto& product = use[static_cast<std::size_t>(storageLevel)];
    for (auto bound : bounds)
        product = saturatingMul(product, bound);
}

// The first storage level whose use exceeds its fan-out, or -1.
int firstOverflowOf(const Architecture& arch, std::span<const std::int64_t> use)
{
    for (int s = 0; s < arch.levelCount(); ++s)
        if (use[static_cast<std::size_t>(s)] > arch.fanout(s))
            return s;
    return -1;
}

// The first storage level whose use exceeds its fan-out, or -1; `use` receives every level's use.
int firstOverflow(const Architecture& arch, std::span<const SpatialLoops> loops,
                  std::vector<std::int64_t>& use)
{
    use = spatialFanoutUse(arch, loops);
    return firstOverflowOf(arch, use);
}

} // namespace

std::vector<std::int64_t> spatialFanoutUse(const Architecture& arch, std::span<const SpatialLoops> loops)
{
    std::vector<std::int64_t> use(static_cast<std::size_t>(arch.levelCount()), 1);
    for (const auto& level : loops)
        addUse(level.storageLevel, level.bounds, use);
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
    std::array<std::int64_t, kSmallFanoutLevels> storage;
    const std::span<std::int64_t> use(storage.data(), static_cast<std::size_t>(levels));
    std::fill(use.begin(), use.end(), std::int64_t{1});
    for (std::size_t i = 0; i < storageLevels.size(); ++i)
        addUse(storageLevels[i],
               bounds.subspan(i * static_cast<std::size_t>(dims), static_cast<std::size_t>(dims)), use);
    if (firstOverflowOf(arch, use) >= 0)
        return false;
    return spatialSplitExists(arch, storageLevels, bounds, dims);
}

} // namespace sparsemap
