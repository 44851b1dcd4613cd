#include "search/es/direct_encoding.hpp"

#include "genome/cantor.hpp"
#include "genome/genome_codec.hpp"
#include "genome/sg_gene.hpp"
#include "util/error.hpp"

#include <limits>

namespace sparsemap::search {

DirectEncoding::DirectEncoding(const GenomeLayout& layout, std::uint64_t permutationSeed)
    : m_layout(layout), m_codes(factorial(static_cast<int>(layout.workload().dims.size())), permutationSeed),
      m_levels(static_cast<int>(layout.mappingLevels().size())),
      m_dims(static_cast<int>(layout.workload().dims.size()))
{
    const auto perm = layout.segment(GeneSegment::Permutation);
    for (int i = perm.begin; i < perm.end; ++i)
        m_ranges.push_back({layout.gene(i).lower, layout.gene(i).upper});
    for (int d = 0; d < m_dims; ++d) {
        const auto size = layout.paddedSize(d);
        const int upper = static_cast<int>(std::min<std::int64_t>(size, std::numeric_limits<int>::max()));
        for (int l = 0; l < m_levels; ++l)
            m_ranges.push_back({1, upper});
    }
    m_formatBegin = static_cast<int>(m_ranges.size());
    for (int i = layout.segment(GeneSegment::Format).begin; i < layout.size(); ++i)
        m_ranges.push_back({layout.gene(i).lower, layout.gene(i).upper});
}

int DirectEncoding::boundGene(int dim, int mappingLevel) const
{
    return m_levels + dim * m_levels + mappingLevel;
}

void DirectEncoding::decode(std::span<const int> individual, Design& design) const
{
    const auto& slots = m_layout.mappingLevels();
    auto& levels = design.mapping.levels;
    levels.resize(slots.size());
    design.mapping.keep.clear();
    design.mapping.stream.clear();
    for (int l = 0; l < m_levels; ++l) {
        auto& level = levels[l];
        level.name = slots[l].name;
        level.storageLevel = slots[l].storageLevel;
        level.kind = slots[l].kind;
        level.spatialXLoops = -1;
        cantorDecodeInto(m_codes(individual[l]), m_dims, level.order);
        level.bounds.resize(static_cast<std::size_t>(m_dims));
        for (int d = 0; d < m_dims; ++d)
            level.bounds[d] = individual[boundGene(d, l)];
    }
    // decodeFormats reads the format genes at their SparseMap-genome positions: build that view.
    Genome view(static_cast<std::size_t>(m_layout.size()), 0);
    const int sparseBegin = m_layout.segment(GeneSegment::Format).begin;
    std::copy(individual.begin() + m_formatBegin, individual.end(), view.begin() + sparseBegin);
    design.sparse.formats = decodeFormats(m_layout, design.mapping, view);
    const auto sg = m_layout.segment(GeneSegment::SkipGate);
    design.sparse.sites.resize(static_cast<std::size_t>(sg.size()));
    for (int i = sg.begin; i < sg.end; ++i) {
        auto& site = design.sparse.sites[i - sg.begin];
        site.storageLevel = m_layout.gene(i).site;
        sgActionsFromGeneInto(view[i], m_layout.inputTensors(), site.actions);
    }
}

Design DirectEncoding::decode(std::span<const int> individual) const
{
    Design design;
    decode(individual, design);
    return design;
}

Genome DirectEncoding::sparseMapGenome(const Design& design) const
{
    for (int d = 0; d < m_dims; ++d)
        if (design.mapping.product(d) != m_layout.paddedSize(d))
            return {};
    try {
        return encodeDesign(m_layout, design);
    } catch (const InputError&) {
        return {};
    }
}

std::size_t DirectEncoding::evaluate(SearchContext& context, std::span<const Genome> individuals,
                                     std::vector<double>& objectives) const
{
    const std::size_t n =
        std::min<std::size_t>(individuals.size(), static_cast<std::size_t>(context.remaining()));
    std::vector<Design> designs(n);
    std::vector<Genome> genomes(n);
    for (std::size_t i = 0; i < n; ++i) {
        decode(individuals[i], designs[i]);
        genomes[i] = sparseMapGenome(designs[i]);
    }
    return context.evaluateDesigns(designs, genomes, objectives);
}

} // namespace sparsemap::search
