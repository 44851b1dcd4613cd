#include "search/sparsemap/design_moves.hpp"

#include "genome/cantor.hpp"
#include "genome/genome_codec.hpp"
#include "search/genome_checks.hpp"
#include "sparse/rank_format.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <tuple>

namespace sparsemap::search {

namespace {

// Calls visit(permutation gene, non-unit loop mask, ordered loop mask) for each mapping level's loop
// order (nonUnitLoopMasks, orderedLoopMasks).
template <typename Visit>
void forEachLevelOrder(const GenomeLayout& layout, const Genome& genome, Visit&& visit)
{
    std::uint32_t nonUnit[64], ordered[64];
    nonUnitLoopMasks(layout, genome, nonUnit);
    orderedLoopMasks(layout, genome, ordered);
    const auto perm = layout.segment(GeneSegment::Permutation);
    for (int i = perm.begin; i < perm.end; ++i) {
        const int level = layout.gene(i).mappingLevel;
        visit(i, nonUnit[level], ordered[level]);
    }
}

} // namespace

DesignMoves::DesignMoves(const GenomeLayout& layout, Formats formats)
    : m_layout(layout), m_formats(formats), m_ranges(geneRanges(layout))
{
    std::map<int, std::vector<int>> tilingByDim;
    for (int i = 0; i < layout.size(); ++i) {
        const auto& g = layout.gene(i);
        if (g.segment == GeneSegment::Tiling)
            tilingByDim[g.dim].push_back(i);
        else if (g.segment == GeneSegment::Permutation || g.segment == GeneSegment::SkipGate)
            m_blocks.push_back({i});
    }
    for (auto& [dim, genes] : tilingByDim)
        m_blocks.push_back(std::move(genes));
    const auto& slots = layout.mappingLevels();
    for (std::size_t k = 0; k < slots.size(); ++k)
        (slots[k].kind == LoopKind::Spatial ? m_spatialLevels : m_temporalLevels)
            .push_back(static_cast<int>(k) + 1);
    for (int slot = 0; slot < layout.formatSegmentCount(); ++slot) {
        const auto range = layout.formatSegment(slot);
        std::vector<int> genes;
        for (int i = range.begin; i < range.end; ++i)
            genes.push_back(i);
        if (!genes.empty())
            m_blocks.push_back(std::move(genes));
    }
}

Genome DesignMoves::blockCrossover(const Genome& a, const Genome& b, std::mt19937_64& rng) const
{
    Genome child(a);
    std::bernoulli_distribution coin(0.5);
    for (const auto& block : m_blocks)
        if (coin(rng))
            for (int i : block)
                child[i] = b[i];
    return child;
}

void DesignMoves::loopPositions(const Genome& genome, int permGene, std::uint32_t mask,
                                std::vector<int>& order, std::vector<int>& positions) const
{
    cantorDecodeInto(genome[permGene], static_cast<int>(m_layout.workload().dims.size()), order);
    positions.clear();
    for (std::size_t k = 0; k < order.size(); ++k)
        if ((mask >> order[k]) & 1u)
            positions.push_back(static_cast<int>(k));
}

void DesignMoves::swapAdjacent(Genome& genome, int permGene, std::vector<int>& order, int first,
                               int second) const
{
    std::swap(order[first], order[second]);
    genome[permGene] = static_cast<int>(cantorEncode(order));
    std::swap(order[first], order[second]);
}

bool DesignMoves::carry(std::mt19937_64& rng) const
{
    return m_formats == Formats::Carried || (m_formats == Formats::Both && uniform01(rng) < 0.5);
}

bool DesignMoves::step(Genome& genome, int gene, std::mt19937_64& rng) const
{
    const auto& info = m_layout.gene(gene);
    if (info.segment == GeneSegment::Permutation) {
        std::vector<int> order, positions;
        std::uint32_t nonUnit[64];
        nonUnitLoopMasks(m_layout, genome, nonUnit);
        loopPositions(genome, gene, nonUnit[info.mappingLevel], order, positions);
        if (positions.size() < 2)
            return false;
        const int k = uniformInt(0, static_cast<int>(positions.size()) - 2, rng);
        const bool carried = carry(rng);
        const Genome before = carried ? genome : Genome{};
        swapAdjacent(genome, gene, order, positions[k], positions[k + 1]);
        if (carried)
            carryFormats(m_layout, before, genome);
        return true;
    }
    if (m_ranges[gene].size() < 2)
        return false;
    if (info.segment == GeneSegment::Tiling && carry(rng)) {
        const Genome before = genome;
        genome[gene] = resetGene(genome[gene], m_ranges[gene], rng);
        carryFormats(m_layout, before, genome);
        return true;
    }
    genome[gene] = resetGene(genome[gene], m_ranges[gene], rng);
    return true;
}

bool DesignMoves::stepAny(Genome& genome, std::mt19937_64& rng) const
{
    // A few draws find a movable gene almost always; the scan makes the answer certain.
    for (int draw = 0; draw < 8; ++draw)
        if (step(genome, uniformInt(0, static_cast<int>(genome.size()) - 1, rng), rng))
            return true;
    std::vector<int> movable;
    for (int i = 0; i < static_cast<int>(genome.size()); ++i) {
        Genome probe = genome;
        if (step(probe, i, rng))
            movable.push_back(i);
    }
    if (movable.empty())
        return false;
    return step(genome, movable[uniformInt(0, static_cast<int>(movable.size()) - 1, rng)], rng);
}

bool DesignMoves::isSpatialLevel(int value) const
{
    return std::find(m_spatialLevels.begin(), m_spatialLevels.end(), value) != m_spatialLevels.end();
}

void DesignMoves::drawSpatialUnrolling(Genome& genome, std::mt19937_64& rng, double oneDimShare,
                                       bool innerOneDimFit) const
{
    if (m_spatialLevels.empty() || m_temporalLevels.empty())
        return;
    auto temporal = [&] {
        return m_temporalLevels[static_cast<std::size_t>(
            uniformInt(0, static_cast<int>(m_temporalLevels.size()) - 1, rng))];
    };
    const auto tiling = m_layout.segment(GeneSegment::Tiling);
    for (int i = tiling.begin; i < tiling.end; ++i)
        if (isSpatialLevel(genome[i]))
            genome[i] = temporal();
    std::vector<int> levels = m_spatialLevels, dims(m_layout.workload().dims.size()), genes, placed;
    std::shuffle(levels.begin(), levels.end(), rng);
    const int innermost = m_spatialLevels.back();
    // The chosen dims' factors, in random order, to `level` while the fan-out fits; their product.
    auto fill = [&](int level) {
        std::shuffle(genes.begin(), genes.end(), rng);
        placed.clear();
        double product = 1;
        for (int i : genes) {
            const int was = genome[i];
            genome[i] = level;
            if (spatialFanoutFits(m_layout, genome)) {
                placed.push_back(i);
                product *= static_cast<double>(m_layout.gene(i).factor);
            } else {
                genome[i] = was;
            }
        }
        return product;
    };
    Genome before, fullest;
    for (int level : levels) {
        std::iota(dims.begin(), dims.end(), 0);
        std::shuffle(dims.begin(), dims.end(), rng);
        const bool fit = innerOneDimFit && level == innermost;
        const bool oneDim = fit || (oneDimShare > 0 && uniform01(rng) < oneDimShare);
        const auto chosen = dims.begin() + (oneDim ? 1 : uniformInt(1, static_cast<int>(dims.size()), rng));
        genes.clear();
        for (int i = tiling.begin; i < tiling.end; ++i)
            if (!isSpatialLevel(genome[i]) && std::find(dims.begin(), chosen, m_layout.gene(i).dim) != chosen)
                genes.push_back(i);
        if (fit) { // the fullest of kInnerFitDraws fills, kept whole
            before = genome;
            double most = 0;
            for (int t = 0; t < kInnerFitDraws; ++t) {
                if (t > 0)
                    genome = before;
                const double product = fill(level);
                if (product > most) {
                    most = product;
                    fullest = genome;
                }
            }
            genome = fullest;
            continue;
        }
        double product = fill(level);
        if (uniform01(rng) >= 0.5)
            continue;
        // Whole factors leave until the product is at most the target (1e-7: rounding of the power).
        const double target = std::pow(product, uniform01(rng)) * (1 + 1e-7);
        std::shuffle(placed.begin(), placed.end(), rng);
        for (int i : placed) {
            if (product <= target)
                break;
            product /= static_cast<double>(m_layout.gene(i).factor);
            genome[i] = temporal();
        }
    }
}

bool DesignMoves::innerSpatialOneDim(const Genome& genome) const
{
    if (m_spatialLevels.empty())
        return true;
    const int innermost = m_spatialLevels.back();
    const auto tiling = m_layout.segment(GeneSegment::Tiling);
    int dim = -1;
    for (int i = tiling.begin; i < tiling.end; ++i)
        if (genome[i] == innermost) {
            if (dim >= 0 && m_layout.gene(i).dim != dim)
                return false;
            dim = m_layout.gene(i).dim;
        }
    return true;
}

std::vector<std::int64_t> DesignMoves::spatialUnrolling(const Genome& genome) const
{
    const auto dims = m_layout.workload().dims.size();
    std::vector<std::int64_t> unrolling(m_spatialLevels.size() * dims, 1);
    const auto tiling = m_layout.segment(GeneSegment::Tiling);
    for (int i = tiling.begin; i < tiling.end; ++i) {
        const auto level = std::find(m_spatialLevels.begin(), m_spatialLevels.end(), genome[i]);
        if (level != m_spatialLevels.end()) {
            const auto& gene = m_layout.gene(i);
            unrolling[static_cast<std::size_t>(level - m_spatialLevels.begin()) * dims +
                      static_cast<std::size_t>(gene.dim)] *= gene.factor;
        }
    }
    return unrolling;
}

void DesignMoves::withFormats(const Genome& genome, std::vector<Genome>& out) const
{
    if (m_formats == Formats::Positional)
        return;
    if (m_formats == Formats::Both)
        out.push_back(out.back());
    carryFormats(m_layout, genome, out.back());
    if (m_carriedRepair == FormatRepair::Offsets)
        orderFormatGenesForSparseloop(m_layout, out.back(), FormatRepair::Offsets);
}

void DesignMoves::neighbours(const Genome& genome, std::vector<Genome>& out) const
{
    appendSingleMoves(genome, out, true);
}

void DesignMoves::neighboursWithoutSkipGate(const Genome& genome, std::vector<Genome>& out) const
{
    appendSingleMoves(genome, out, false);
}

void DesignMoves::appendSingleMoves(const Genome& genome, std::vector<Genome>& out, bool skipGate) const
{
    std::vector<int> order, positions;
    std::uint32_t nonUnit[64];
    nonUnitLoopMasks(m_layout, genome, nonUnit);
    auto push = [&](bool mapping) { // the move just appended, with its carried variant
        if (mapping)
            withFormats(genome, out);
    };
    for (int i = 0; i < static_cast<int>(genome.size()); ++i) {
        const auto& info = m_layout.gene(i);
        if (info.segment == GeneSegment::Permutation) {
            loopPositions(genome, i, nonUnit[info.mappingLevel], order, positions);
            for (std::size_t k = 0; k + 1 < positions.size(); ++k) {
                out.push_back(genome);
                swapAdjacent(out.back(), i, order, positions[k], positions[k + 1]);
                push(true);
            }
            continue;
        }
        if (!skipGate && info.segment == GeneSegment::SkipGate)
            continue;
        for (int v = m_ranges[i].lower; v <= m_ranges[i].upper; ++v)
            if (v != genome[i]) {
                out.push_back(genome);
                out.back()[i] = v;
                push(info.segment == GeneSegment::Tiling);
            }
    }
}

void DesignMoves::skipGateNeighbours(const Genome& genome, std::vector<Genome>& out) const
{
    const auto sg = m_layout.segment(GeneSegment::SkipGate);
    for (int i = sg.begin; i < sg.end; ++i)
        appendValues(genome, i, out);
}

void DesignMoves::factorInsertNeighbours(const Genome& genome, std::vector<Genome>& out) const
{
    const auto tiling = m_layout.segment(GeneSegment::Tiling);
    const auto perm = m_layout.segment(GeneSegment::Permutation);
    std::vector<int> permGene(m_layout.mappingLevels().size(), -1); // per mapping level
    for (int j = perm.begin; j < perm.end; ++j)
        permGene[static_cast<std::size_t>(m_layout.gene(j).mappingLevel)] = j;
    std::uint32_t nonUnit[64], after[64];
    nonUnitLoopMasks(m_layout, genome, nonUnit);
    std::vector<int> order, positions, others;
    for (int i = tiling.begin; i < tiling.end; ++i) {
        const auto& info = m_layout.gene(i);
        if (i > tiling.begin && genome[i - 1] == genome[i] && m_layout.gene(i - 1).dim == info.dim &&
            m_layout.gene(i - 1).factor == info.factor)
            continue; // an equal factor of the dim at the same level makes the same moves
        for (std::size_t level = 0; level < permGene.size(); ++level) {
            const int value = static_cast<int>(level) + 1;
            if (value == genome[i] || isSpatialLevel(value) || permGene[level] < 0 ||
                ((nonUnit[level] >> info.dim) & 1u))
                continue;
            Genome moved = genome;
            moved[i] = value;
            nonUnitLoopMasks(m_layout, moved, after);
            loopPositions(moved, permGene[level], after[level], order, positions);
            others.clear();
            std::size_t at = 0;
            for (std::size_t k = 0; k < positions.size(); ++k) {
                const int dim = order[static_cast<std::size_t>(positions[k])];
                if (dim == info.dim)
                    at = k;
                else
                    others.push_back(dim);
            }
            for (std::size_t k = 0; k < positions.size(); ++k) {
                if (k == at)
                    continue;
                std::vector<int> placed = order;
                for (std::size_t q = 0, next = 0; q < positions.size(); ++q)
                    placed[static_cast<std::size_t>(positions[q])] = q == k ? info.dim : others[next++];
                out.push_back(moved);
                out.back()[permGene[level]] = static_cast<int>(cantorEncode(placed));
                withFormats(genome, out);
            }
        }
    }
}

void DesignMoves::boundLoopOrderNeighbours(const Genome& genome, std::vector<Genome>& out) const
{
    std::vector<int> order, positions;
    forEachLevelOrder(m_layout, genome, [&](int i, std::uint32_t nonUnit, std::uint32_t ordered) {
        if (ordered == nonUnit)
            return; // no unit loop is bound here: the single moves have every order
        loopPositions(genome, i, ordered, order, positions);
        for (std::size_t k = 0; k + 1 < positions.size(); ++k) {
            out.push_back(genome);
            swapAdjacent(out.back(), i, order, positions[k], positions[k + 1]);
        }
    });
}

void DesignMoves::loopRelocationNeighbours(const Genome& genome, std::vector<Genome>& out) const
{
    std::vector<int> order, positions;
    forEachLevelOrder(m_layout, genome, [&](int i, std::uint32_t nonUnit, std::uint32_t ordered) {
        loopPositions(genome, i, nonUnit, order, positions);
        appendRelocations(genome, i, order, positions, true, out);
        if (ordered != nonUnit) { // bound unit loops: the order of the tile's ranks
            loopPositions(genome, i, ordered, order, positions);
            appendRelocations(genome, i, order, positions, false, out);
        }
    });
}

void DesignMoves::appendRelocations(const Genome& genome, int permGene, const std::vector<int>& order,
                                    const std::vector<int>& positions, bool mapping,
                                    std::vector<Genome>& out) const
{
    const std::size_t n = positions.size();
    std::vector<int> current(n), loops, moved;
    for (std::size_t k = 0; k < n; ++k)
        current[k] = order[static_cast<std::size_t>(positions[k])];
    for (std::size_t from = 0; from < n; ++from)
        for (std::size_t to = 0; to < n; ++to) {
            if (to + 1 >= from && to <= from + 1)
                continue; // the loop's own place, or an adjacent swap (a single move)
            loops = current;
            const auto source = loops.begin() + static_cast<std::ptrdiff_t>(from);
            const auto target = loops.begin() + static_cast<std::ptrdiff_t>(to);
            if (from < to)
                std::rotate(source, source + 1, target + 1);
            else
                std::rotate(target, source, source + 1);
            moved = order;
            for (std::size_t k = 0; k < n; ++k)
                moved[static_cast<std::size_t>(positions[k])] = loops[k];
            out.push_back(genome);
            out.back()[permGene] = static_cast<int>(cantorEncode(moved));
            if (mapping)
                withFormats(genome, out);
        }
}

void DesignMoves::appendValues(const Genome& genome, int i, std::vector<Genome>& out) const
{
    for (int v = m_ranges[i].lower; v <= m_ranges[i].upper; ++v)
        if (v != genome[i]) {
            out.push_back(genome);
            out.back()[i] = v;
        }
}

void DesignMoves::appendValuePairs(const Genome& genome, int i, int j, std::vector<Genome>& out) const
{
    for (int vi = m_ranges[i].lower; vi <= m_ranges[i].upper; ++vi)
        for (int vj = m_ranges[j].lower; vj <= m_ranges[j].upper; ++vj)
            if (vi != genome[i] && vj != genome[j]) {
                out.push_back(genome);
                out.back()[i] = vi;
                out.back()[j] = vj;
            }
}

void DesignMoves::formatPairNeighbours(const Genome& genome, std::vector<Genome>& out) const
{
    appendUsedFormatPairs(genome, out, &DesignMoves::appendValuePairs);
}

void DesignMoves::compressionMoveNeighbours(const Genome& genome, std::vector<Genome>& out) const
{
    appendUsedFormatPairs(genome, out, &DesignMoves::appendCompressionMoves);
}

void DesignMoves::appendUsedFormatPairs(const Genome& genome, std::vector<Genome>& out, PairMoves moves) const
{
    // Only the genes the tensor's ranks use: the others are U in the canonical genome.
    std::vector<RankKey> ranks;
    for (int slot = 0; slot < m_layout.formatSegmentCount(); ++slot) {
        const auto range = m_layout.formatSegment(slot);
        if (range.size() == 0)
            continue;
        formatRankKeysInto(m_layout, genome, slot, ranks);
        const int first = range.end - std::min(static_cast<int>(ranks.size()), range.size());
        for (int i = first; i < range.end; ++i)
            for (int j = i + 1; j < range.end; ++j)
                (this->*moves)(genome, i, j, out);
    }
}

void DesignMoves::appendCompressionMoves(const Genome& genome, int i, int j, std::vector<Genome>& out) const
{
    constexpr int u = static_cast<int>(RankFormat::U);
    if ((genome[i] == u) == (genome[j] == u))
        return;
    const int from = genome[i] == u ? j : i;
    const int to = genome[i] == u ? i : j;
    for (int v = m_ranges[to].lower; v <= m_ranges[to].upper; ++v)
        if (v != u) {
            out.push_back(genome);
            out.back()[from] = u;
            out.back()[to] = v;
        }
}

void DesignMoves::followUpNeighbours(const Genome& before, const Genome& genome, std::vector<Genome>& out,
                                     bool compressionMoves) const
{
    std::vector<RankKey> was, now;
    for (int slot = 0; slot < m_layout.formatSegmentCount(); ++slot) {
        const auto range = m_layout.formatSegment(slot);
        if (range.size() == 0)
            continue;
        formatRankKeysInto(m_layout, before, slot, was);
        formatRankKeysInto(m_layout, genome, slot, now);
        if (was == now)
            continue;
        // The genes are right-aligned to the ranks: gene range.end - 1 formats the innermost rank.
        const int first = range.end - std::min(static_cast<int>(now.size()), range.size());
        auto newRank = [&](int gene) {
            const auto& key = now[now.size() - static_cast<std::size_t>(range.end - gene)];
            return std::find(was.begin(), was.end(), key) == was.end();
        };
        for (int i = first; i < range.end; ++i) {
            appendValues(genome, i, out);
            for (int j = i + 1; j < range.end; ++j)
                if (newRank(i) || newRank(j))
                    appendValuePairs(genome, i, j, out);
                else if (compressionMoves)
                    appendCompressionMoves(genome, i, j, out);
        }
    }
    skipGateNeighbours(genome, out);
}

DesignMoves::FactorBlocks DesignMoves::factorBlocks(const Genome& genome) const
{
    const auto tiling = m_layout.segment(GeneSegment::Tiling);
    FactorBlocks blocks;
    for (int i = tiling.begin; i < tiling.end; ++i) {
        const auto& g = m_layout.gene(i);
        blocks[{g.dim, g.factor, genome[i]}].push_back(i);
    }
    return blocks;
}

void DesignMoves::factorBlockNeighbours(const Genome& genome, std::vector<Genome>& out) const
{
    for (const auto& [key, genes] : factorBlocks(genome)) {
        if (genes.size() < 2)
            continue; // a single factor: a single move
        const auto& range = m_ranges[genes.front()];
        for (int level = range.lower; level <= range.upper; ++level) {
            if (level == std::get<2>(key))
                continue;
            out.push_back(genome);
            for (int i : genes)
                out.back()[i] = level;
            withFormats(genome, out);
        }
    }
}

void DesignMoves::factorBlockExchangeNeighbours(const Genome& genome, std::vector<Genome>& out) const
{
    const auto tiling = m_layout.segment(GeneSegment::Tiling);
    std::map<std::tuple<std::int64_t, int, int>, std::vector<int>> blocks; // (factor, dim, level) -> genes
    for (int i = tiling.begin; i < tiling.end; ++i) {
        const auto& g = m_layout.gene(i);
        blocks[{g.factor, g.dim, genome[i]}].push_back(i);
    }
    for (auto a = blocks.begin(); a != blocks.end(); ++a)
        for (auto b = std::next(a); b != blocks.end(); ++b) {
            const auto& [pa, da, la] = a->first;
            const auto& [pb, db, lb] = b->first;
            if (pa != pb || da == db || la == lb)
                continue;
            const auto most = std::min(a->second.size(), b->second.size());
            auto trade = [&](std::size_t k) { // k of each block's factors trade levels
                out.push_back(genome);
                for (std::size_t n = 0; n < k; ++n) {
                    out.back()[a->second[n]] = lb;
                    out.back()[b->second[n]] = la;
                }
                withFormats(genome, out);
            };
            if (most >= 2)
                trade(2);
            if (most > 2)
                trade(most);
        }
}

void DesignMoves::factorExchangeNeighbours(const Genome& genome, std::vector<Genome>& out) const
{
    const auto tiling = m_layout.segment(GeneSegment::Tiling);
    for (int i = tiling.begin; i < tiling.end; ++i)
        for (int j = i + 1; j < tiling.end; ++j) {
            const auto& a = m_layout.gene(i);
            const auto& b = m_layout.gene(j);
            if (genome[i] == genome[j] || (a.dim == b.dim && a.factor == b.factor))
                continue; // the same design
            out.push_back(genome);
            std::swap(out.back()[i], out.back()[j]);
            withFormats(genome, out);
        }
}

void DesignMoves::factorRefillNeighbours(const Genome& genome, std::vector<Genome>& out) const
{
    appendRefills(genome, out, true);
}

void DesignMoves::temporalRefillNeighbours(const Genome& genome, std::vector<Genome>& out) const
{
    appendRefills(genome, out, false);
}

void DesignMoves::spatialResplitNeighbours(const Genome& genome, std::vector<Genome>& out) const
{
    // A dim's genes at one level grouped by prime (ascending), and the sub-multisets of a grouping as
    // counts per group: the first k genes of a group, since a dim's equal factors are interchangeable.
    struct Group {
        std::int64_t prime;
        std::vector<int> genes;
    };
    std::map<std::pair<int, int>, std::vector<Group>> byDimAndLevel;
    for (const auto& [key, genes] : factorBlocks(genome)) // (dim, factor, level): factors ascending
        byDimAndLevel[{std::get<0>(key), std::get<2>(key)}].push_back({std::get<1>(key), genes});
    auto groupsAt = [&](int dim, int level) {
        const auto it = byDimAndLevel.find({dim, level});
        return it == byDimAndLevel.end() ? std::vector<Group>{} : it->second;
    };
    auto subMultisets = [](const std::vector<Group>& groups) {
        std::vector<std::vector<int>> all{{}};
        for (const auto& group : groups) {
            std::vector<std::vector<int>> next;
            for (const auto& counts : all)
                for (int k = 0; k <= static_cast<int>(group.genes.size()); ++k) {
                    next.push_back(counts);
                    next.back().push_back(k);
                }
            all = std::move(next);
        }
        return all;
    };
    struct Side {
        std::int64_t product = 1;
        int factors = 0;
    };
    auto side = [](const std::vector<Group>& groups, const std::vector<int>& counts) {
        Side s;
        for (std::size_t i = 0; i < groups.size(); ++i)
            for (int k = 0; k < counts[i]; ++k) {
                s.product *= groups[i].prime;
                ++s.factors;
            }
        return s;
    };
    auto sharePrime = [](const std::vector<Group>& a, const std::vector<int>& ca, const std::vector<Group>& b,
                         const std::vector<int>& cb) {
        for (std::size_t i = 0; i < a.size(); ++i)
            for (std::size_t j = 0; j < b.size(); ++j)
                if (ca[i] > 0 && cb[j] > 0 && a[i].prime == b[j].prime)
                    return true;
        return false;
    };
    const int dims = static_cast<int>(m_layout.paddedSizes().size());
    std::vector<int> levels = m_spatialLevels;
    levels.insert(levels.end(), m_temporalLevels.begin(), m_temporalLevels.end());
    for (const int s : m_spatialLevels)
        for (int d = 0; d < dims; ++d) {
            const auto here = groupsAt(d, s);
            if (here.empty())
                continue;
            const auto hereSubsets = subMultisets(here);
            for (const int l : levels) {
                if (l == s)
                    continue;
                const auto there = groupsAt(d, l);
                if (there.empty())
                    continue;
                const auto thereSubsets = subMultisets(there);
                for (const auto& a : hereSubsets) {
                    const Side give = side(here, a);
                    for (const auto& b : thereSubsets) {
                        const Side take = side(there, b);
                        if (give.factors == 0 || take.factors == 0 || give.factors + take.factors < 3 ||
                            (give.factors == 1 && take.factors == 2) ||
                            (give.factors == 2 && take.factors == 1) || give.product > 2 * take.product ||
                            take.product > 2 * give.product || sharePrime(here, a, there, b))
                            continue;
                        out.push_back(genome);
                        Genome& n = out.back();
                        for (std::size_t i = 0; i < here.size(); ++i)
                            for (int k = 0; k < a[i]; ++k)
                                n[here[i].genes[k]] = l;
                        for (std::size_t i = 0; i < there.size(); ++i)
                            for (int k = 0; k < b[i]; ++k)
                                n[there[i].genes[k]] = s;
                        if (!spatialFanoutFits(m_layout, n)) {
                            out.pop_back();
                            continue;
                        }
                        withFormats(genome, out);
                    }
                }
            }
        }
}

void DesignMoves::appendRefills(const Genome& genome, std::vector<Genome>& out, bool spatial) const
{
    const auto tiling = m_layout.segment(GeneSegment::Tiling);
    for (int one = tiling.begin; one < tiling.end; ++one) {
        const auto& single = m_layout.gene(one);
        for (int b = tiling.begin; b < tiling.end; ++b) {
            const auto& first = m_layout.gene(b);
            if (first.dim != single.dim || first.factor == single.factor || genome[b] == genome[one] ||
                (isSpatialLevel(genome[one]) || isSpatialLevel(genome[b])) != spatial)
                continue;
            for (int c = b + 1; c < tiling.end; ++c) {
                const auto& second = m_layout.gene(c);
                if (second.dim != single.dim || second.factor == single.factor || genome[c] != genome[b])
                    continue;
                out.push_back(genome);
                Genome& n = out.back();
                n[one] = genome[b];
                n[b] = n[c] = genome[one];
                withFormats(genome, out);
            }
        }
    }
}

void DesignMoves::uncompressedVariants(const Genome& genome, std::vector<Genome>& out) const
{
    const int u = static_cast<int>(RankFormat::U);
    Genome all = genome;
    int compressed = 0;
    for (int slot = 0; slot < m_layout.formatSegmentCount(); ++slot) {
        const auto range = m_layout.formatSegment(slot);
        if (std::all_of(genome.begin() + range.begin, genome.begin() + range.end,
                        [u](int v) { return v == u; }))
            continue;
        ++compressed;
        out.push_back(genome);
        std::fill(out.back().begin() + range.begin, out.back().begin() + range.end, u);
        std::fill(all.begin() + range.begin, all.begin() + range.end, u);
    }
    if (compressed >= 2)
        out.push_back(std::move(all));
}

void DesignMoves::strategyNeighbours(const Genome& genome, std::vector<Genome>& out) const
{
    const auto sg = m_layout.segment(GeneSegment::SkipGate);
    std::vector<SegmentRange> compressed; // the format segments with a gene other than U
    for (int slot = 0; slot < m_layout.formatSegmentCount(); ++slot) {
        const auto range = m_layout.formatSegment(slot);
        for (int i = range.begin; i < range.end; ++i)
            if (genome[i] != static_cast<int>(RankFormat::U)) {
                compressed.push_back(range);
                break;
            }
    }
    Genome base = genome;
    const auto subsets = 1u << compressed.size();
    for (unsigned mask = 0; mask < subsets; ++mask) {
        for (std::size_t t = 0; t < compressed.size(); ++t)
            for (int i = compressed[t].begin; i < compressed[t].end; ++i)
                base[i] = (mask >> t) & 1u ? static_cast<int>(RankFormat::U) : genome[i];
        for (int i = sg.begin; i < sg.end; ++i) // the first S/G combination: every gene at its lower bound
            base[i] = m_ranges[i].lower;
        while (true) {
            if (base != genome)
                out.push_back(base);
            int i = sg.begin; // the next combination, an odometer over the S/G genes
            for (; i < sg.end && base[i] == m_ranges[i].upper; ++i)
                base[i] = m_ranges[i].lower;
            if (i == sg.end)
                break;
            ++base[i];
        }
    }
}

} // namespace sparsemap::search
