#include "mapping/spatial_split.hpp"

#include "util/limits.hpp"

#include <algorithm>
#include <array>
#include <optional>

namespace sparsemap {

Mesh timeloopMesh(const Architecture& arch, int level)
{
    const bool compute = level >= arch.levelCount();
    const std::int64_t instances = compute ? arch.compute.instances : arch.levels[level].instances;
    const std::int64_t meshX = compute ? arch.compute.meshX : arch.levels[level].meshX;
    if (meshX <= 0 || instances % meshX != 0)
        return {instances, 1};
    return {meshX, instances / meshX};
}

namespace {

struct Choice {
    std::int64_t x = 1, y = 1;
    std::uint32_t mask = 0;
};

// The distinct X products one level can take, largest first (one mask each: the first found).
std::vector<Choice> choicesOf(const SpatialLoops& level)
{
    std::int64_t total = 1;
    std::vector<int> dims;
    dims.reserve(level.bounds.size());
    for (std::size_t d = 0; d < level.bounds.size(); ++d)
        if (level.bounds[d] > 1) {
            dims.push_back(static_cast<int>(d));
            total *= level.bounds[d];
        }
    std::vector<Choice> out;
    if (level.fixedX) {
        Choice c;
        c.mask = *level.fixedX;
        for (int d : dims)
            if ((c.mask >> d) & 1u)
                c.x *= level.bounds[static_cast<std::size_t>(d)];
        c.y = total / c.x;
        out.push_back(c);
        return out;
    }
    // Every subset of the split dims (at most kMaxDims = 32 of them: workloadProblems). Each has a
    // bound >= 2, so n dims need a fan-out >= 2^n; past 2^20 subsets only "all along X" and "all along
    // Y" are tried, so that the enumeration stays bounded (and the shift defined).
    const int n = static_cast<int>(dims.size());
    const std::uint64_t full = (std::uint64_t{1} << n) - 1;
    const bool enumerate = n <= 20;
    out.reserve(enumerate ? std::min<std::uint64_t>(full + 1, 64) : 2);
    for (std::uint64_t m = 0; m <= full; m = enumerate ? m + 1 : (m == 0 ? full : full + 1)) {
        Choice c;
        for (int i = 0; i < n; ++i)
            if ((m >> i) & 1u) {
                c.x *= level.bounds[static_cast<std::size_t>(dims[i])];
                c.mask |= std::uint32_t{1} << dims[i];
            }
        c.y = total / c.x;
        if (std::none_of(out.begin(), out.end(), [&](const Choice& o) { return o.x == c.x; }))
            out.push_back(c);
    }
    std::stable_sort(out.begin(), out.end(), [](const Choice& a, const Choice& b) { return a.x > b.x; });
    return out;
}

// Whether an X x Y expansion fits the meshes of the levels (storage indices, levelCount() = compute)
// whose expansion is final once a spatial level at storage level `from - 1` is placed: those below it
// down to the next spatial level's storage level `to`.
bool fitsMeshes(const Architecture& arch, int from, int to, std::int64_t x, std::int64_t y)
{
    for (int t = from; t <= to; ++t) {
        const Mesh mesh = timeloopMesh(arch, t);
        if (x > mesh.x || y > mesh.y)
            return false;
    }
    return true;
}

struct Search {
    const Architecture& arch;
    std::span<const SpatialLoops> levels;
    std::vector<std::vector<Choice>> choices;
    std::vector<std::uint32_t> picked;

    bool fitsBelow(std::size_t i, std::int64_t x, std::int64_t y) const
    {
        return fitsMeshes(arch, levels[i].storageLevel + 1,
                          i + 1 < levels.size() ? levels[i + 1].storageLevel : arch.levelCount(), x, y);
    }

    bool place(std::size_t i, std::int64_t x, std::int64_t y)
    {
        if (i == levels.size())
            return true;
        for (const auto& c : choices[i]) {
            const std::int64_t nx = x * c.x, ny = y * c.y;
            if (!fitsBelow(i, nx, ny))
                continue;
            picked[i] = c.mask;
            if (place(i + 1, nx, ny))
                return true;
        }
        return false;
    }
};

} // namespace

std::optional<std::vector<std::uint32_t>> splitSpatialLoops(const Architecture& arch,
                                                            std::span<const SpatialLoops> levels)
{
    Search s{arch, levels, {}, std::vector<std::uint32_t>(levels.size(), 0)};
    s.choices.reserve(levels.size());
    for (const auto& level : levels)
        s.choices.push_back(choicesOf(level));
    if (!s.place(0, 1, 1))
        return std::nullopt;
    return s.picked;
}

namespace {

// The dims a level's split places along X (its spatialXLoops innermost loops), as a mask; none
// without a split.
std::optional<std::uint32_t> splitXMask(const MappingLevel& level)
{
    if (level.spatialXLoops < 0)
        return std::nullopt;
    std::uint32_t mask = 0;
    const int n = static_cast<int>(level.order.size());
    for (int i = std::max(0, n - level.spatialXLoops); i < n; ++i)
        mask |= 1u << level.order[static_cast<std::size_t>(i)];
    return mask;
}

// One spatial level as the allocation-free search sees it: its non-unit bounds and their dims.
// Only the first n entries of bound and dim are set (the levels are arrays on a hot path).
struct SmallLevel {
    int storage;
    int n;
    std::array<std::int64_t, kSmallSplitDims> bound;
    std::array<int, kSmallSplitDims> dim;
    std::optional<std::uint32_t> fixedX;

    void reset(int storageLevel)
    {
        storage = storageLevel;
        n = 0;
        fixedX.reset();
    }

    // Adds a per-dim bound; false when the level has more than kSmallSplitDims non-unit bounds.
    bool add(int d, std::int64_t b)
    {
        if (b <= 1)
            return true;
        if (n == kSmallSplitDims)
            return false;
        bound[static_cast<std::size_t>(n)] = b;
        dim[static_cast<std::size_t>(n++)] = d;
        return true;
    }
};

// Search without its allocations: the same depth-first walk over each level's distinct X products,
// largest first, each with the mask choicesOf keeps for it (the first subset found, in subset order).
struct SmallSearch {
    const Architecture& arch;
    std::span<const SmallLevel> levels;
    std::uint32_t* picked; // one mask per level, or nullptr when only existence is asked

    bool place(std::size_t i, std::int64_t x, std::int64_t y) const
    {
        if (i == levels.size())
            return true;
        const SmallLevel& level = levels[i];
        struct Product {
            std::int64_t x;
            std::uint32_t mask;
        };
        std::array<Product, std::size_t{1} << kSmallSplitDims> products;
        std::int64_t total = 1;
        for (int k = 0; k < level.n; ++k)
            total *= level.bound[static_cast<std::size_t>(k)];
        std::size_t count = 0;
        if (level.fixedX) {
            Product c{1, *level.fixedX};
            for (int k = 0; k < level.n; ++k)
                if ((c.mask >> level.dim[static_cast<std::size_t>(k)]) & 1u)
                    c.x *= level.bound[static_cast<std::size_t>(k)];
            products[count++] = c;
        } else {
            // Every subset in subset order, inserted into a list kept largest first with equal
            // products in subset order (a stable insertion sort: few subsets, mostly 2-8).
            for (std::size_t m = 0; m < (std::size_t{1} << level.n); ++m) {
                Product c{1, 0};
                for (int j = 0; j < level.n; ++j)
                    if ((m >> j) & 1u) {
                        c.x *= level.bound[static_cast<std::size_t>(j)];
                        c.mask |= std::uint32_t{1} << level.dim[static_cast<std::size_t>(j)];
                    }
                std::size_t at = count++;
                for (; at > 0 && products[at - 1].x < c.x; --at)
                    products[at] = products[at - 1];
                products[at] = c;
            }
        }
        const int from = level.storage + 1;
        const int to = i + 1 < levels.size() ? levels[i + 1].storage : arch.levelCount();
        for (std::size_t k = 0; k < count; ++k) {
            if (k > 0 && products[k].x == products[k - 1].x)
                continue;
            const std::int64_t nx = x * products[k].x, ny = y * (total / products[k].x);
            if (!fitsMeshes(arch, from, to, nx, ny))
                continue;
            if (picked)
                picked[i] = products[k].mask;
            if (place(i + 1, nx, ny))
                return true;
        }
        return false;
    }
};

// The spatial levels of `mapping` for SmallSearch; false when there are more than
// kMaxStorageLevels of them or one has more than kSmallSplitDims non-unit bounds.
bool smallLevelsOf(const Mapping& mapping, std::array<SmallLevel, kMaxStorageLevels>& out, std::size_t& count)
{
    count = 0;
    for (const auto& level : mapping.levels) {
        if (level.kind != LoopKind::Spatial)
            continue;
        if (count == out.size())
            return false;
        SmallLevel& s = out[count++];
        s.reset(level.storageLevel);
        for (std::size_t d = 0; d < level.bounds.size(); ++d)
            if (!s.add(static_cast<int>(d), level.bounds[d]))
                return false;
        s.fixedX = splitXMask(level);
    }
    return true;
}

// splitSpatialLoops(arch, spatialLoopsOf(mapping)) into `masks` (one per spatial level, outer to
// inner), without allocating when smallLevelsOf can hold the levels.
using SmallMasks = std::array<std::uint32_t, kMaxStorageLevels>;
bool splitMasksInto(const Architecture& arch, const Mapping& mapping, SmallMasks& small,
                    std::vector<std::uint32_t>& large, std::span<const std::uint32_t>& masks)
{
    std::array<SmallLevel, kMaxStorageLevels> levels;
    std::size_t count = 0;
    if (smallLevelsOf(mapping, levels, count)) {
        masks = std::span<const std::uint32_t>(small.data(), count);
        return SmallSearch{arch, std::span<const SmallLevel>(levels.data(), count), small.data()}.place(0, 1,
                                                                                                        1);
    }
    auto picked = splitSpatialLoops(arch, spatialLoopsOf(mapping));
    if (!picked)
        return false;
    large = std::move(*picked);
    masks = large;
    return true;
}

} // namespace

bool spatialSplitExists(const Architecture& arch, std::span<const int> storageLevels,
                        std::span<const std::int64_t> bounds, int dims)
{
    std::array<SmallLevel, kMaxStorageLevels> levels;
    bool small = storageLevels.size() <= levels.size();
    for (std::size_t i = 0; i < storageLevels.size() && small; ++i) {
        levels[i].reset(storageLevels[i]);
        for (int d = 0; d < dims && small; ++d)
            small =
                levels[i].add(d, bounds[i * static_cast<std::size_t>(dims) + static_cast<std::size_t>(d)]);
    }
    if (small)
        return SmallSearch{arch, std::span<const SmallLevel>(levels.data(), storageLevels.size()), nullptr}
            .place(0, 1, 1);
    return splitSpatialLoops(arch, spatialLoopsFromFlat(storageLevels, bounds, dims)).has_value();
}

bool spatialSplitFits(const Architecture& arch, const Mapping& mapping)
{
    SmallMasks small;
    std::vector<std::uint32_t> large;
    std::span<const std::uint32_t> masks;
    return splitMasksInto(arch, mapping, small, large, masks);
}

std::vector<SpatialLoops> spatialLoopsFromFlat(std::span<const int> storageLevels,
                                               std::span<const std::int64_t> bounds, int dims)
{
    std::vector<SpatialLoops> loops;
    for (std::size_t i = 0; i < storageLevels.size(); ++i) {
        const auto row = bounds.subspan(i * static_cast<std::size_t>(dims), static_cast<std::size_t>(dims));
        loops.push_back({storageLevels[i], std::vector<std::int64_t>(row.begin(), row.end()), std::nullopt});
    }
    return loops;
}

bool spatialLoopsFitAlongX(const Architecture& arch, const Mapping& mapping)
{
    std::int64_t x = 1;
    std::size_t l = 0;
    for (int t = 1; t <= arch.levelCount(); ++t) {
        for (; l < mapping.levels.size() && mapping.levels[l].storageLevel < t; ++l)
            if (mapping.levels[l].kind == LoopKind::Spatial)
                for (auto b : mapping.levels[l].bounds)
                    x *= b;
        if (x > timeloopMesh(arch, t).x)
            return false;
    }
    return true;
}

std::vector<SpatialLoops> spatialLoopsOf(const Mapping& mapping)
{
    std::vector<SpatialLoops> out;
    for (const auto& level : mapping.levels) {
        if (level.kind != LoopKind::Spatial)
            continue;
        SpatialLoops s;
        s.storageLevel = level.storageLevel;
        s.bounds = level.bounds;
        s.fixedX = splitXMask(level);
        out.push_back(std::move(s));
    }
    return out;
}

namespace {

// Timeloop's split of one level: the dims of `xMask` along X, innermost in their order; the others
// (Y dims and trivial loops) outermost in theirs.
void applySplit(MappingLevel& level, std::uint32_t xMask)
{
    // The Y loops (and trivial ones) outermost, the X ones innermost, each group in its order; a level
    // orders at most 32 dims (the mask's width).
    std::array<int, 32> alongX;
    std::size_t kept = 0, x = 0;
    for (int d : level.order)
        if ((xMask >> d) & 1u)
            alongX[x++] = d;
        else
            level.order[kept++] = d;
    std::copy(alongX.begin(), alongX.begin() + static_cast<std::ptrdiff_t>(x),
              level.order.begin() + static_cast<std::ptrdiff_t>(kept));
    level.spatialXLoops = static_cast<int>(x);
}

} // namespace

void splitAllAlongX(Mapping& mapping)
{
    for (auto& level : mapping.levels) {
        if (level.kind != LoopKind::Spatial || level.spatialXLoops >= 0)
            continue;
        std::uint32_t mask = 0;
        for (std::size_t d = 0; d < level.bounds.size(); ++d)
            if (level.bounds[d] > 1)
                mask |= 1u << d;
        applySplit(level, mask);
    }
}

std::optional<Mapping> withSpatialSplits(const Architecture& arch, const Mapping& mapping)
{
    Mapping out;
    if (!withSpatialSplitsInto(arch, mapping, out))
        return std::nullopt;
    return out;
}

bool withSpatialSplitsInto(const Architecture& arch, const Mapping& mapping, Mapping& out)
{
    SmallMasks small;
    std::vector<std::uint32_t> large;
    std::span<const std::uint32_t> masks;
    if (!splitMasksInto(arch, mapping, small, large, masks))
        return false;
    out = mapping;
    std::size_t k = 0;
    for (auto& level : out.levels) {
        if (level.kind != LoopKind::Spatial)
            continue;
        const std::uint32_t mask = masks[k++];
        if (level.spatialXLoops >= 0)
            continue;
        applySplit(level, mask);
    }
    return true;
}

} // namespace sparsemap
