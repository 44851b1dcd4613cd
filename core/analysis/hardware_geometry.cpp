#include "analysis/hardware_geometry.hpp"

#include "mapping/mapping_checks.hpp"
#include "mapping/spatial_split.hpp"
#include "mapping/tile_shape.hpp"
#include "util/error.hpp"
#include "util/rounding.hpp"

#include <algorithm>
#include <cmath>

namespace sparsemap::analysis {

std::string_view spatialCastName(SpatialCast cast)
{
    switch (cast) {
    case SpatialCast::None:
        return "single";
    case SpatialCast::Broadcast:
        return "broadcast";
    case SpatialCast::Multicast:
        return "multicast";
    case SpatialCast::Unicast:
        return "unicast";
    }
    return "?";
}

namespace {

// Width of a square-ish grid of n cells: the smallest divisor of n that is >= sqrt(n).
std::int64_t squareishWidth(std::int64_t n)
{
    if (n <= 1)
        return 1;
    auto w = static_cast<std::int64_t>(ceilCount(std::sqrt(static_cast<double>(n))));
    while (n % w != 0)
        ++w;
    return w;
}

} // namespace

HardwareGeometry::HardwareGeometry(Workload workload, Architecture arch, const Mapping& mapping)
    : m_workload(std::move(workload)), m_arch(std::move(arch))
{
    const int dims = static_cast<int>(m_workload.dims.size());
    const int levels = m_arch.levelCount();
    if (levels < 1)
        throw InputError("hardware view: the architecture has no storage level");
    // The model's pre-check (the workload as evaluated: for a genome, with its padded dims).
    if (const auto problem = mappingPreCheck(mapping, m_workload, m_arch); !problem.empty())
        throw InputError("hardware view: " + problem);

    for (int s = 0; s < levels; ++s)
        m_dimTiles.push_back(dimTileSizes(mapping, dims, s));
    buildLoops(mapping);
    buildFanouts();
    buildInstances();
}

void HardwareGeometry::buildLoops(const Mapping& mapping)
{
    const auto& levels = mapping.levels;
    const int count = static_cast<int>(levels.size());
    for (int l = 0; l < count; ++l) {
        const auto& level = levels[l];
        const int n = static_cast<int>(level.order.size());
        for (int i = 0; i < n; ++i) {
            const int dim = level.order[i];
            const auto bound = level.bounds[dim];
            if (bound <= 1)
                continue;
            TraceLoop loop;
            loop.mappingLevel = l;
            loop.storageLevel = level.storageLevel;
            loop.dim = dim;
            loop.bound = bound;
            loop.spatial = level.kind == LoopKind::Spatial;
            loop.alongY = loopAlongY(level, i);
            for (int inner = l + 1; inner < count; ++inner)
                loop.stride *= levels[inner].bounds[dim];
            (loop.spatial ? m_spatial : m_temporal).push_back(loop);
        }
    }
    m_steps = 1;
    for (const auto& loop : m_temporal)
        m_steps *= loop.bound;
}

void HardwareGeometry::buildFanouts()
{
    const int levels = m_arch.levelCount();
    auto meshWidth = [this, levels](int slot) {
        const bool compute = slot == levels;
        const std::int64_t instances = compute ? m_arch.compute.instances : m_arch.levels[slot].instances;
        const std::int64_t meshX = compute ? m_arch.compute.meshX : m_arch.levels[slot].meshX;
        return meshX > 0 && instances % meshX == 0 ? meshX : squareishWidth(instances);
    };
    for (int s = 0; s < levels; ++s) {
        Fanout f;
        f.parentLevel = s;
        f.childLevel = s + 1 < levels ? s + 1 : -1;
        f.childrenPerParent = m_arch.fanout(s);
        const std::int64_t parentW = meshWidth(s), childW = meshWidth(s + 1);
        f.gridWidth = childW % parentW == 0 && f.childrenPerParent % (childW / parentW) == 0
                          ? childW / parentW
                          : squareishWidth(f.childrenPerParent);
        f.gridWidth = std::max<std::int64_t>(1, std::min(f.gridWidth, f.childrenPerParent));
        bool any = false;
        for (const auto& loop : m_spatial)
            if (loop.storageLevel == s) {
                any = true;
                (loop.alongY ? f.usedY : f.usedX) *= loop.bound;
            }
        f.used = f.usedX * f.usedY;
        for (int t = 0; t < static_cast<int>(m_workload.tensors.size()); ++t) {
            int indexing = 0, total = 0;
            std::int64_t share = 1;
            for (const auto& loop : m_spatial)
                if (loop.storageLevel == s) {
                    ++total;
                    if (m_workload.indexes(t, loop.dim))
                        ++indexing;
                    else
                        share *= loop.bound;
                }
            f.cast.push_back(!any                ? SpatialCast::None
                             : indexing == 0     ? SpatialCast::Broadcast
                             : indexing == total ? SpatialCast::Unicast
                                                 : SpatialCast::Multicast);
            f.share.push_back(share);
        }
        m_fanouts.push_back(std::move(f));
    }
}

void HardwareGeometry::buildInstances()
{
    const int levels = m_arch.levelCount();
    const std::size_t dims = m_workload.dims.size();
    m_used.assign(static_cast<std::size_t>(levels) + 1, {});
    m_usedLookup.assign(static_cast<std::size_t>(levels) + 1, {});
    auto slotInstances = [this, levels](int slot) {
        return slot == levels ? m_arch.compute.instances : m_arch.levels[slot].instances;
    };
    m_used[0].push_back(UsedInstance{0, std::vector<std::int64_t>(dims, 0), -1});
    for (int s = 0; s < levels; ++s) {
        const Fanout& f = m_fanouts[s];
        std::vector<const TraceLoop*> loops;
        for (const auto& loop : m_spatial)
            if (loop.storageLevel == s)
                loops.push_back(&loop);
        const bool split =
            std::any_of(loops.begin(), loops.end(), [](const TraceLoop* l) { return l->alongY; });
        std::vector<std::int64_t> idx(loops.size(), 0);
        for (std::size_t p = 0; p < m_used[s].size(); ++p) {
            const UsedInstance parent = m_used[s][p];
            std::fill(idx.begin(), idx.end(), 0);
            for (;;) {
                std::int64_t x = 0, y = 0, linear = 0;
                UsedInstance child{0, parent.offset, static_cast<std::int64_t>(p)};
                for (std::size_t i = 0; i < loops.size(); ++i) {
                    linear = linear * loops[i]->bound + idx[i];
                    if (loops[i]->alongY)
                        y = y * loops[i]->bound + idx[i];
                    else
                        x = x * loops[i]->bound + idx[i];
                    child.offset[loops[i]->dim] += idx[i] * loops[i]->stride;
                }
                // With an X/Y split the mesh position follows it; otherwise the children fill the
                // parent's grid row by row.
                const std::int64_t local =
                    split ? (f.usedX <= f.gridWidth ? y * f.gridWidth + x : y * f.usedX + x) : linear;
                child.global = parent.global * f.childrenPerParent + local;
                m_used[s + 1].push_back(std::move(child));
                // Next combination of the spatial indices (a mixed-radix counter).
                bool done = true;
                for (std::size_t i = loops.size(); i > 0; --i) {
                    if (++idx[i - 1] < loops[i - 1]->bound) {
                        done = false;
                        break;
                    }
                    idx[i - 1] = 0;
                }
                if (done)
                    break;
            }
        }
    }
    for (int slot = 0; slot <= levels; ++slot) {
        auto& lookup = m_usedLookup[slot];
        lookup.assign(static_cast<std::size_t>(std::max<std::int64_t>(1, slotInstances(slot))), -1);
        for (std::size_t i = 0; i < m_used[slot].size(); ++i) {
            const auto g = m_used[slot][i].global;
            if (g < 0 || g >= static_cast<std::int64_t>(lookup.size()))
                throw InputError("hardware view: the mapping's spatial loops below " +
                                 m_arch.levels[slot - 1].name + " do not fit the architecture's mesh");
            lookup[g] = static_cast<std::int64_t>(i);
        }
    }
}

std::vector<std::int64_t> HardwareGeometry::loopIndices(std::int64_t step) const
{
    step = std::clamp<std::int64_t>(step, 0, m_steps - 1);
    std::vector<std::int64_t> out(m_temporal.size(), 0);
    for (std::size_t i = m_temporal.size(); i > 0; --i) {
        out[i - 1] = step % m_temporal[i - 1].bound;
        step /= m_temporal[i - 1].bound;
    }
    return out;
}

std::vector<std::int64_t> HardwareGeometry::temporalOffsets(std::int64_t step, int aboveStorageLevel) const
{
    const auto idx = loopIndices(step);
    std::vector<std::int64_t> off(m_workload.dims.size(), 0);
    for (std::size_t i = 0; i < m_temporal.size(); ++i)
        if (m_temporal[i].storageLevel < aboveStorageLevel)
            off[m_temporal[i].dim] += idx[i] * m_temporal[i].stride;
    return off;
}

const HardwareGeometry::UsedInstance* HardwareGeometry::findUsed(int slot, std::int64_t global) const
{
    if (slot < 0 || slot >= static_cast<int>(m_usedLookup.size()))
        return nullptr;
    const auto& lookup = m_usedLookup[slot];
    if (global < 0 || global >= static_cast<std::int64_t>(lookup.size()) || lookup[global] < 0)
        return nullptr;
    return &m_used[slot][lookup[global]];
}

std::optional<std::vector<CoordRange>> HardwareGeometry::tile(std::int64_t step, int storageLevel,
                                                              std::int64_t instance, int tensor) const
{
    if (storageLevel < 0 || storageLevel >= m_arch.levelCount() || tensor < 0 ||
        tensor >= static_cast<int>(m_workload.tensors.size()))
        return std::nullopt;
    const UsedInstance* used = findUsed(storageLevel, instance);
    if (!used)
        return std::nullopt;
    auto begin = temporalOffsets(step, storageLevel);
    for (std::size_t d = 0; d < begin.size(); ++d)
        begin[d] += used->offset[d];
    const auto& size = m_dimTiles[storageLevel];
    std::vector<CoordRange> out;
    for (const auto& rank : m_workload.tensors[tensor].ranks) {
        CoordRange r;
        std::int64_t extent = 1;
        for (const auto& term : rank) {
            r.begin += term.coefficient * begin[term.dim];
            extent += term.coefficient * (size[term.dim] - 1);
        }
        r.end = r.begin + extent;
        out.push_back(r);
    }
    return out;
}

std::string HardwareGeometry::tileText(int tensor, const std::vector<CoordRange>& ranges) const
{
    std::string out = m_workload.tensors.at(tensor).name + "[";
    for (std::size_t r = 0; r < ranges.size(); ++r) {
        if (r)
            out += ',';
        out += std::to_string(ranges[r].begin);
        if (ranges[r].end - ranges[r].begin != 1)
            out += ':' + std::to_string(ranges[r].end);
    }
    return out + "]";
}

bool HardwareGeometry::instanceUsed(int storageLevel, std::int64_t instance) const
{
    const int slot = storageLevel < 0 ? m_arch.levelCount() : storageLevel;
    return findUsed(slot, instance) != nullptr;
}

std::int64_t HardwareGeometry::usedInstances(int storageLevel) const
{
    const int slot = storageLevel < 0 ? m_arch.levelCount() : storageLevel;
    return slot < static_cast<int>(m_used.size()) ? static_cast<std::int64_t>(m_used[slot].size()) : 0;
}

HardwareGeometry::GridPos HardwareGeometry::gridPosition(int storageLevel, std::int64_t instance) const
{
    const int slot = storageLevel < 0 ? m_arch.levelCount() : storageLevel;
    if (slot <= 0)
        return {0, 0};
    const Fanout& f = m_fanouts[slot - 1];
    const std::int64_t rowsPerParent = (f.childrenPerParent + f.gridWidth - 1) / f.gridWidth;
    const GridPos parent = gridPosition(slot - 1, instance / f.childrenPerParent);
    const std::int64_t local = instance % f.childrenPerParent;
    return {parent.column * f.gridWidth + local % f.gridWidth,
            parent.row * rowsPerParent + local / f.gridWidth};
}

std::int64_t HardwareGeometry::gridColumns(int storageLevel) const
{
    const int slot = storageLevel < 0 ? m_arch.levelCount() : storageLevel;
    return slot <= 0 ? 1 : gridColumns(slot - 1) * m_fanouts[slot - 1].gridWidth;
}

std::int64_t HardwareGeometry::gridRows(int storageLevel) const
{
    const int slot = storageLevel < 0 ? m_arch.levelCount() : storageLevel;
    if (slot <= 0)
        return 1;
    const Fanout& f = m_fanouts[slot - 1];
    return gridRows(slot - 1) * ((f.childrenPerParent + f.gridWidth - 1) / f.gridWidth);
}

std::vector<std::int64_t> HardwareGeometry::macPoint(std::int64_t step, std::int64_t mac) const
{
    const int slot = m_arch.levelCount();
    const UsedInstance* used = findUsed(slot, mac);
    if (!used)
        return {};
    auto point = temporalOffsets(step, slot);
    for (std::size_t d = 0; d < point.size(); ++d)
        point[d] += used->offset[d];
    return point;
}

} // namespace sparsemap::analysis
