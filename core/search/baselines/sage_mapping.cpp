#include "search/baselines/sage_mapping.hpp"

#include "genome/cantor.hpp"
#include "mapping/spatial_fanout.hpp"
#include "search/baselines/baseline_support.hpp"

#include <algorithm>
#include <cstdlib>
#include <tuple>

namespace sparsemap::search {

namespace {

struct Factor {
    int gene = 0;
    int dim = 0;
    int index = 0; // among the dim's factors, ascending
    std::int64_t value = 1;
};

// Assigns tiling factors to mapping levels and checks dense tiles against the buffers.
class Tiler {
public:
    Tiler(const GenomeLayout& layout, double fill) : m_layout(layout), m_fill(fill)
    {
        const auto levels = layout.mappingLevels().size();
        const auto dims = layout.paddedSizes().size();
        m_bounds.assign(levels, std::vector<std::int64_t>(dims, 1));
    }

    // Places each factor of `factors` (in order) at mapping level `level` when the result still fits.
    void place(std::vector<Factor>& factors, int level)
    {
        for (auto it = factors.begin(); it != factors.end();) {
            m_bounds[level][it->dim] *= it->value;
            if (fits()) {
                m_levelOfGene.emplace_back(it->gene, level);
                it = factors.erase(it);
            } else {
                m_bounds[level][it->dim] /= it->value;
                ++it;
            }
        }
    }
    const std::vector<std::pair<int, int>>& placed() const { return m_levelOfGene; }

private:
    bool fits() const
    {
        const auto& arch = m_layout.architecture();
        const auto& slots = m_layout.mappingLevels();
        std::vector<SpatialLoops> spatial;
        for (std::size_t l = 0; l < slots.size(); ++l)
            if (slots[l].kind == LoopKind::Spatial)
                spatial.push_back({slots[l].storageLevel, m_bounds[l], std::nullopt});
        if (!spatialFanoutFits(arch, spatial))
            return false;
        for (int s = 1; s < arch.levelCount(); ++s) { // and every level's dense tiles fit its capacity
            std::vector<std::int64_t> extent(m_layout.paddedSizes().size(), 1);
            for (std::size_t l = 0; l < slots.size(); ++l)
                if (slots[l].storageLevel >= s)
                    for (std::size_t d = 0; d < extent.size(); ++d)
                        extent[d] *= m_bounds[l][d];
            const auto& level = arch.levels[s];
            if (!level.unbounded() &&
                denseWords(extent) > m_fill * static_cast<double>(level.capacityWords()))
                return false;
        }
        return true;
    }

    // Words of every tensor's dense tile for per-dim extents (an affine rank spans sum c*(e-1)+1).
    double denseWords(const std::vector<std::int64_t>& extent) const
    {
        double words = 0;
        for (const auto& tensor : m_layout.workload().tensors) {
            double size = 1;
            for (const auto& rank : tensor.ranks) {
                std::int64_t span = 1;
                for (const auto& term : rank)
                    span += std::abs(term.coefficient) * (extent[term.dim] - 1);
                size *= static_cast<double>(span);
            }
            words += size;
        }
        return words;
    }

    const GenomeLayout& m_layout;
    double m_fill;
    std::vector<std::vector<std::int64_t>> m_bounds; // [mapping level][dim]
    std::vector<std::pair<int, int>> m_levelOfGene;  // (tiling gene, mapping level)
};

int slotIndex(const GenomeLayout& layout, int storageLevel, LoopKind kind)
{
    const auto& slots = layout.mappingLevels();
    for (std::size_t l = 0; l < slots.size(); ++l)
        if (slots[l].storageLevel == storageLevel && slots[l].kind == kind)
            return static_cast<int>(l);
    return -1;
}

} // namespace

std::vector<int> outputStationaryMappingGenes(const GenomeLayout& layout, double bufferFill)
{
    detail::require(bufferFill > 0 && bufferFill <= 1, "sage: bufferFill must be in (0, 1]");
    const auto& w = layout.workload();
    const int z = layout.outputTensor();
    std::vector<Factor> output, reduction;
    const auto tiling = layout.segment(GeneSegment::Tiling);
    for (int i = tiling.begin; i < tiling.end; ++i) {
        const auto& g = layout.gene(i);
        (w.indexes(z, g.dim) ? output : reduction).push_back({i, g.dim, g.factorIndex, g.factor});
    }
    // Largest first; equal factors of different dims alternate (index, then dim).
    const auto byValue = [](const Factor& a, const Factor& b) {
        return std::tie(b.value, a.index, a.dim) < std::tie(a.value, b.index, b.dim);
    };
    std::sort(output.begin(), output.end(), byValue);
    std::sort(reduction.begin(), reduction.end(), byValue);

    Tiler tiler(layout, bufferFill);
    const int storageLevels = layout.architecture().levelCount();
    for (int s = 1; s < storageLevels; ++s)
        if (const int l = slotIndex(layout, s, LoopKind::Spatial); l >= 0)
            tiler.place(output, l);
    if (const int l = slotIndex(layout, storageLevels - 1, LoopKind::Temporal); l >= 0)
        tiler.place(reduction, l);
    std::vector<Factor> rest = reduction;
    rest.insert(rest.end(), output.begin(), output.end());
    std::sort(rest.begin(), rest.end(), byValue);
    for (int s = storageLevels - 1; s >= 1; --s)
        if (const int l = slotIndex(layout, s, LoopKind::Temporal); l >= 0)
            tiler.place(rest, l);

    const auto range = layout.mappingGenes();
    std::vector<int> genes(static_cast<std::size_t>(range.size()), 1); // level 1 = the outermost (DRAM)
    for (const auto& [gene, level] : tiler.placed())
        genes[static_cast<std::size_t>(gene - range.begin)] = level + 1;

    std::vector<int> order;
    for (int d = 0; d < static_cast<int>(w.dims.size()); ++d)
        if (w.indexes(z, d))
            order.push_back(d);
    for (int d = 0; d < static_cast<int>(w.dims.size()); ++d)
        if (!w.indexes(z, d))
            order.push_back(d);
    const auto perm = layout.segment(GeneSegment::Permutation);
    for (int i = perm.begin; i < perm.end; ++i)
        genes[static_cast<std::size_t>(i - range.begin)] = static_cast<int>(cantorEncode(order));
    return genes;
}

} // namespace sparsemap::search
