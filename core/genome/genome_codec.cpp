#include "genome/genome_codec.hpp"

#include "genome/cantor.hpp"
#include "genome/sg_gene.hpp"
#include "sparse/tensor_ranks.hpp"
#include "util/error.hpp"

#include <algorithm>
#include <map>

namespace sparsemap {

namespace {

void decodeFormatsInto(const GenomeLayout& layout, const Mapping& mapping, std::span<const int> genome,
                       std::vector<std::vector<TensorFormat>>& formats)
{
    const Workload& w = layout.workload();
    const int levels = layout.architecture().levelCount();
    formats.resize(static_cast<std::size_t>(levels));
    for (auto& perLevel : formats)
        perLevel.resize(w.tensors.size());
    for (int slot = 0; slot < layout.formatSegmentCount(); ++slot) {
        const int tensor = layout.formatTensor(slot);
        const int base = layout.formatSegment(slot).begin;
        for (int s = 0; s < levels; ++s) {
            auto& ranks = formats[s][tensor].ranks;
            tensorRanksInto(w, mapping, tensor, s, ranks);
            const int n = static_cast<int>(ranks.size());
            for (int i = 0; i < n; ++i) {
                const int fromInner = n - 1 - i;
                ranks[i].format =
                    fromInner < kFormatGenesPerTensor
                        ? static_cast<RankFormat>(genome[base + kFormatGenesPerTensor - 1 - fromInner])
                        : RankFormat::UOP;
            }
        }
    }
}

} // namespace

std::vector<std::vector<TensorFormat>> decodeFormats(const GenomeLayout& layout, const Mapping& mapping,
                                                     std::span<const int> genome)
{
    std::vector<std::vector<TensorFormat>> formats;
    decodeFormatsInto(layout, mapping, genome, formats);
    return formats;
}

void decodeGenomeInto(const GenomeLayout& layout, std::span<const int> genome, Design& design)
{
    layout.validate(genome);
    const Workload& w = layout.workload();
    const int dimCount = static_cast<int>(w.dims.size());
    const auto& slots = layout.mappingLevels();
    auto& levels = design.mapping.levels;
    levels.resize(slots.size());
    design.mapping.keep.clear();
    design.mapping.stream.clear();
    for (std::size_t l = 0; l < slots.size(); ++l) {
        levels[l].name = slots[l].name;
        levels[l].storageLevel = slots[l].storageLevel;
        levels[l].kind = slots[l].kind;
        levels[l].spatialXLoops = -1;
        levels[l].bounds.assign(static_cast<std::size_t>(dimCount), 1);
    }
    const auto perm = layout.segment(GeneSegment::Permutation);
    for (int i = perm.begin; i < perm.end; ++i)
        cantorDecodeInto(genome[i], dimCount, levels[layout.gene(i).mappingLevel].order);
    const auto tiling = layout.segment(GeneSegment::Tiling);
    for (int i = tiling.begin; i < tiling.end; ++i) {
        const auto& g = layout.gene(i);
        levels[genome[i] - 1].bounds[g.dim] *= g.factor;
    }
    decodeFormatsInto(layout, design.mapping, genome, design.sparse.formats);
    const auto sg = layout.segment(GeneSegment::SkipGate);
    design.sparse.sites.resize(static_cast<std::size_t>(sg.size()));
    for (int i = sg.begin; i < sg.end; ++i) {
        auto& site = design.sparse.sites[i - sg.begin];
        site.storageLevel = layout.gene(i).site;
        sgActionsFromGeneInto(genome[i], layout.inputTensors(), site.actions);
    }
}

Design decodeGenome(const GenomeLayout& layout, std::span<const int> genome)
{
    Design design;
    decodeGenomeInto(layout, genome, design);
    return design;
}

void nonUnitLoopMasks(const GenomeLayout& layout, std::span<const int> genome, std::span<std::uint32_t> masks)
{
    std::fill(masks.begin(), masks.end(), 0u);
    const auto tiling = layout.segment(GeneSegment::Tiling);
    for (int i = tiling.begin; i < tiling.end; ++i)
        masks[static_cast<std::size_t>(genome[i] - 1)] |= 1u << layout.gene(i).dim;
}

namespace {

// The number of set bits. std::popcount is a libgcc call on the x86-64 baseline (no POPCNT), and the
// canonical form counts ranks on every genome.
int bitCount(std::uint32_t v)
{
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    return static_cast<int>((((v + (v >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}

// orderedLoopMasks from the genome's nonUnitLoopMasks.
void orderedLoopMasksFrom(const GenomeLayout& layout, std::span<const int> genome,
                          const std::uint32_t (&nonUnit)[64], std::span<std::uint32_t> masks)
{
    const auto& slots = layout.mappingLevels();
    const std::size_t levels = slots.size();
    const int formatSlots = layout.formatSegmentCount();
    // A format slot's ranks at the storage level of the block [first, ...]: one per non-unit loop of a
    // dim indexing its tensor at or inside the level (mapping levels run outer to inner, storage levels
    // in order).
    auto ranksFrom = [&](int slot, std::size_t first) {
        int ranks = 0;
        for (std::size_t l = first; l < levels; ++l)
            ranks += bitCount(nonUnit[l] & layout.formatTensorDims(slot));
        return ranks;
    };
    // The dims of the tensors whose tile at the block's storage level has metadata: a rank there with
    // a format gene other than U, or beyond the genes (UOP).
    auto withMetadata = [&](std::size_t first) {
        std::uint32_t dimsOf = 0;
        for (int slot = 0; slot < formatSlots; ++slot) {
            const int ranks = ranksFrom(slot, first);
            bool metadata = ranks > kFormatGenesPerTensor;
            const int base = layout.formatSegment(slot).begin;
            for (int pos = kFormatGenesPerTensor - std::min(ranks, kFormatGenesPerTensor);
                 pos < kFormatGenesPerTensor && !metadata; ++pos)
                metadata = genome[base + pos] != static_cast<int>(RankFormat::U);
            if (metadata)
                dimsOf |= layout.formatTensorDims(slot);
        }
        return dimsOf;
    };
    // Inner to outer, a storage level's block of mapping levels [first, last] at a time: `below` =
    // the dims with a non-unit loop inside the block.
    std::uint32_t below = 0;
    for (std::size_t end = levels; end > 0;) {
        const std::size_t last = end - 1;
        std::size_t first = last;
        while (first > 0 && slots[first - 1].storageLevel == slots[last].storageLevel)
            --first;
        std::uint32_t block = 0;
        for (std::size_t l = first; l <= last; ++l) {
            masks[l] = nonUnit[l];
            block |= nonUnit[l];
        }
        if (below != 0)
            masks[last] |= below & withMetadata(first);
        below |= block;
        end = first;
    }
}

} // namespace

void orderedLoopMasks(const GenomeLayout& layout, std::span<const int> genome, std::span<std::uint32_t> masks)
{
    std::uint32_t nonUnit[64];
    nonUnitLoopMasks(layout, genome, nonUnit);
    orderedLoopMasksFrom(layout, genome, nonUnit, masks);
}

void canonicalizeGenome(const GenomeLayout& layout, Genome& genome)
{
    const Workload& w = layout.workload();
    const int dims = static_cast<int>(w.dims.size());
    const auto& slots = layout.mappingLevels();
    std::uint32_t nonUnit[64];
    nonUnitLoopMasks(layout, genome, nonUnit);
    const auto tiling = layout.segment(GeneSegment::Tiling);
    // Equal prime factors of a dim: the levels in ascending order over the ascending factor genes
    // (they are consecutive genes), as encodeDesign hands them out.
    for (int i = tiling.begin; i < tiling.end;) {
        int j = i + 1;
        while (j < tiling.end && layout.gene(j).dim == layout.gene(i).dim &&
               layout.gene(j).factor == layout.gene(i).factor)
            ++j;
        std::sort(genome.begin() + i, genome.begin() + j);
        i = j;
    }
    // The loops whose place does not matter outermost in dim order, the others in their order.
    std::uint32_t ordered[64];
    orderedLoopMasksFrom(layout, genome, nonUnit, ordered);
    int decoded[kMaxCantorDims], canonical[kMaxCantorDims];
    const std::uint32_t allDims = dims >= 32 ? ~0u : (1u << dims) - 1;
    const auto perm = layout.segment(GeneSegment::Permutation);
    for (int i = perm.begin; i < perm.end; ++i) {
        const std::uint32_t mask = ordered[layout.gene(i).mappingLevel] & allDims;
        if (mask == allDims)
            continue; // every loop keeps its place: the order as it is
        if (mask == 0) {
            genome[i] = 1; // the workload's dim order (Cantor code 1)
            continue;
        }
        cantorDecodeInto(genome[i], dims, std::span<int>(decoded, static_cast<std::size_t>(dims)));
        int k = 0;
        for (int d = 0; d < dims; ++d)
            if (!((mask >> d) & 1u))
                canonical[k++] = d;
        for (int j = 0; j < dims; ++j)
            if ((mask >> decoded[j]) & 1u)
                canonical[k++] = decoded[j];
        genome[i] =
            static_cast<int>(cantorEncode(std::span<const int>(canonical, static_cast<std::size_t>(dims))));
    }
    // Format genes no rank uses are U: a tensor has the most ranks at the outermost level, one per
    // non-unit loop of a dim that indexes it.
    for (int slot = 0; slot < layout.formatSegmentCount(); ++slot) {
        const std::uint32_t relevant = layout.formatTensorDims(slot);
        int ranks = 0;
        for (std::size_t l = 0; l < slots.size(); ++l)
            ranks += bitCount(nonUnit[l] & relevant);
        const int base = layout.formatSegment(slot).begin;
        for (int pos = 0; pos < kFormatGenesPerTensor - std::min(ranks, kFormatGenesPerTensor); ++pos)
            genome[base + pos] = 0;
    }
    // The S/G genes stay as they are: each value encodes its own set of actions (sg_gene.hpp; the
    // input operands are distinct tensors), so no two values describe the same design.
}

void formatRankKeysInto(const GenomeLayout& layout, std::span<const int> genome, int slot,
                        std::vector<RankKey>& out)
{
    const Workload& w = layout.workload();
    const int dims = static_cast<int>(w.dims.size());
    const std::uint32_t relevant = layout.formatTensorDims(slot);
    std::uint32_t nonUnit[64];
    nonUnitLoopMasks(layout, genome, nonUnit);
    out.clear();
    int order[kMaxCantorDims];
    const auto perm = layout.segment(GeneSegment::Permutation);
    for (int i = perm.begin; i < perm.end; ++i) {
        const int level = layout.gene(i).mappingLevel;
        const std::uint32_t mask = nonUnit[level] & relevant;
        if (!mask)
            continue;
        cantorDecodeInto(genome[i], dims, std::span<int>(order, static_cast<std::size_t>(dims)));
        for (int k = 0; k < dims; ++k)
            if ((mask >> order[k]) & 1u)
                out.push_back({level, order[k]});
    }
}

void carryFormats(const GenomeLayout& layout, std::span<const int> before, Genome& after)
{
    thread_local std::vector<RankKey> was, now; // reused: the search carries formats on every move
    constexpr int kUOP = static_cast<int>(RankFormat::UOP);
    for (int slot = 0; slot < layout.formatSegmentCount(); ++slot) {
        const int base = layout.formatSegment(slot).begin;
        formatRankKeysInto(layout, before, slot, was);
        formatRankKeysInto(layout, after, slot, now);
        const int nWas = static_cast<int>(was.size());
        const int nNow = static_cast<int>(now.size());
        auto formatWas = [&](int index) { // of rank `index` of `was`
            const int fromInner = nWas - 1 - index;
            return fromInner < kFormatGenesPerTensor ? before[base + kFormatGenesPerTensor - 1 - fromInner]
                                                     : kUOP;
        };
        auto position = [](const std::vector<RankKey>& ranks, RankKey key) {
            return static_cast<int>(std::find(ranks.begin(), ranks.end(), key) - ranks.begin());
        };
        for (int pos = 0; pos < kFormatGenesPerTensor; ++pos)
            after[base + pos] = before[base + pos];
        for (int i = std::max(0, nNow - kFormatGenesPerTensor); i < nNow; ++i) {
            const RankKey key = now[i];
            int format = 0;
            if (const int j = position(was, key); j < nWas) {
                format = formatWas(j);
            } else {
                int moved = -1, split = -1;
                for (int j2 = 0; j2 < nWas; ++j2)
                    if (was[j2].dim == key.dim) {
                        split = j2;
                        if (moved < 0 && position(now, was[j2]) == nNow)
                            moved = j2;
                    }
                if (moved >= 0)
                    format = formatWas(moved);
                else if (split >= 0)
                    format = formatWas(split);
            }
            after[base + kFormatGenesPerTensor - 1 - (nNow - 1 - i)] = format;
        }
    }
}

Genome canonicalGenome(const GenomeLayout& layout, std::span<const int> genome)
{
    layout.validate(genome);
    Genome canonical(genome.begin(), genome.end());
    canonicalizeGenome(layout, canonical);
    return canonical;
}

namespace {

[[noreturn]] void notExpressible(const std::string& why)
{
    throw InputError("the design cannot be written as a SparseMap genome: " + why);
}

void encodeMapping(const GenomeLayout& layout, const Mapping& mapping, Genome& genome)
{
    const Workload& w = layout.workload();
    const auto& slots = layout.mappingLevels();
    const int dimCount = static_cast<int>(w.dims.size());
    if (mapping.levelCount() != static_cast<int>(slots.size()))
        notExpressible("it has " + std::to_string(mapping.levelCount()) +
                       " mapping levels; the template has " + std::to_string(slots.size()));
    for (const auto& perLevel : mapping.keep)
        for (bool kept : perLevel)
            if (!kept)
                notExpressible(
                    "it bypasses a tensor at a storage level; the genome keeps every tensor everywhere");
    for (const auto& perLevel : mapping.stream)
        for (bool streamed : perLevel)
            if (streamed)
                notExpressible("it streams a tensor through a level; the genome has no streams");
    for (int l = 0; l < mapping.levelCount(); ++l) {
        const auto& level = mapping.levels[l];
        if (level.spatialXLoops != -1)
            notExpressible("mapping level " + slots[l].name + " splits its loops over X and Y");
        if (level.storageLevel != slots[l].storageLevel || level.kind != slots[l].kind)
            notExpressible("mapping level " + std::to_string(l + 1) + " is not " + slots[l].name);
        if (static_cast<int>(level.bounds.size()) != dimCount ||
            static_cast<int>(level.order.size()) != dimCount)
            notExpressible("mapping level " + slots[l].name + " does not have one loop per dimension");
    }

    const auto perm = layout.segment(GeneSegment::Permutation);
    for (int i = perm.begin; i < perm.end; ++i)
        genome[i] = static_cast<int>(cantorEncode(mapping.levels[layout.gene(i).mappingLevel].order));

    // For every dim: the multiset of prime factors each level's bound needs, handed out to the
    // ascending factor genes level by level (outer levels first) - the canonical genome.
    const auto tiling = layout.segment(GeneSegment::Tiling);
    for (int d = 0; d < dimCount; ++d) {
        std::map<std::int64_t, std::vector<int>> levelsForPrime; // prime -> levels (1-based), in order
        for (int l = 0; l < mapping.levelCount(); ++l) {
            const std::int64_t bound = mapping.levels[l].bounds[d];
            if (bound < 1)
                notExpressible("bound of " + w.dims[d].name + " at " + slots[l].name + " is not positive");
            for (auto p : primeFactors(bound))
                levelsForPrime[p].push_back(l + 1);
        }
        std::map<std::int64_t, std::size_t> used;
        for (int i = tiling.begin; i < tiling.end; ++i) {
            const auto& g = layout.gene(i);
            if (g.dim != d)
                continue;
            auto& list = levelsForPrime[g.factor];
            auto& next = used[g.factor];
            if (next >= list.size())
                notExpressible("the bounds of " + w.dims[d].name + " multiply to " +
                               std::to_string(mapping.product(d)) + ", not its padded size " +
                               std::to_string(layout.paddedSize(d)));
            genome[i] = list[next++];
        }
        for (const auto& [prime, list] : levelsForPrime)
            if (used[prime] != list.size())
                notExpressible("the bounds of " + w.dims[d].name + " multiply to " +
                               std::to_string(mapping.product(d)) + ", not its padded size " +
                               std::to_string(layout.paddedSize(d)));
    }
}

void encodeFormats(const GenomeLayout& layout, const Design& design, Genome& genome)
{
    const Workload& w = layout.workload();
    const int levels = layout.architecture().levelCount();
    if (static_cast<int>(design.sparse.formats.size()) != levels)
        notExpressible("formats are given for " + std::to_string(design.sparse.formats.size()) +
                       " storage levels; the architecture has " + std::to_string(levels));
    for (int slot = 0; slot < layout.formatSegmentCount(); ++slot) {
        const int tensor = layout.formatTensor(slot);
        const int base = layout.formatSegment(slot).begin;
        std::vector<int> gene(kFormatGenesPerTensor, -1);
        for (int s = 0; s < levels; ++s) {
            const auto& given = design.sparse.formats[s];
            if (given.size() != w.tensors.size())
                notExpressible("formats at a storage level must list every tensor");
            const auto expected = tensorRanks(w, design.mapping, tensor, s);
            const auto& ranks = given[tensor].ranks;
            const std::string where = w.tensors[tensor].name + " at " + layout.architecture().levels[s].name;
            if (ranks.size() != expected.size())
                notExpressible(where + " has " + std::to_string(ranks.size()) + " ranks; the mapping gives " +
                               std::to_string(expected.size()));
            const int n = static_cast<int>(ranks.size());
            for (int i = 0; i < n; ++i) {
                if (ranks[i].dim != expected[i].dim || ranks[i].mappingLevel != expected[i].mappingLevel)
                    notExpressible(where + ": rank " + std::to_string(i + 1) + " is not " +
                                   rankName(w, expected[i]));
                const int fromInner = n - 1 - i;
                const int value = static_cast<int>(ranks[i].format);
                if (fromInner >= kFormatGenesPerTensor) {
                    if (ranks[i].format != RankFormat::UOP)
                        notExpressible(where + ": ranks outside the innermost five must be UOP");
                    continue;
                }
                int& slot = gene[kFormatGenesPerTensor - 1 - fromInner];
                if (slot >= 0 && slot != value)
                    notExpressible(where + ": rank " + rankName(w, ranks[i]) +
                                   " has a different format than the same position at another level");
                slot = value;
            }
        }
        for (int pos = 0; pos < kFormatGenesPerTensor; ++pos)
            genome[base + pos] = gene[pos] < 0 ? 0 : gene[pos];
    }
}

} // namespace

Genome encodeDesign(const GenomeLayout& layout, const Design& design)
{
    Genome genome(layout.size(), 0);
    encodeMapping(layout, design.mapping, genome);
    encodeFormats(layout, design, genome);
    const auto sg = layout.segment(GeneSegment::SkipGate);
    if (static_cast<int>(design.sparse.sites.size()) != sg.size())
        notExpressible("it has " + std::to_string(design.sparse.sites.size()) +
                       " S/G sites; the genome has " + std::to_string(sg.size()));
    for (int i = sg.begin; i < sg.end; ++i) {
        const auto& site = design.sparse.sites[i - sg.begin];
        if (site.storageLevel != layout.gene(i).site)
            notExpressible("S/G sites are not in genome order (on-chip levels, then compute)");
        const auto gene = sgGeneFromActions(site.actions, layout.inputTensors());
        if (!gene)
            notExpressible("an S/G combination at " + layout.gene(i).name + " has no gene value");
        genome[i] = *gene;
    }
    layout.validate(genome);
    return genome;
}

Genome randomGenome(const GenomeLayout& layout, std::mt19937_64& rng)
{
    Genome genome(layout.size());
    for (int i = 0; i < layout.size(); ++i) {
        std::uniform_int_distribution<int> pick(layout.gene(i).lower, layout.gene(i).upper);
        genome[i] = pick(rng);
    }
    return genome;
}

bool orderFormatGenesForSparseloop(const GenomeLayout& layout, Genome& genome, FormatRepair repair)
{
    bool changed = false;
    const auto uncompressed = [](int value) {
        return !isCompressedRankFormat(static_cast<RankFormat>(value));
    };
    for (int slot = 0; slot < layout.formatSegmentCount(); ++slot) {
        const auto range = layout.formatSegment(slot);
        const auto begin = genome.begin() + range.begin, end = genome.begin() + range.end;
        if (std::is_partitioned(begin, end, uncompressed))
            continue;
        changed = true;
        if (repair == FormatRepair::Reorder) {
            std::stable_partition(begin, end, uncompressed);
            continue;
        }
        // Offsets: from the innermost rank outwards, a compressed value with an uncompressed one inside.
        bool uncompressedInside = false;
        for (auto it = end; it != begin;) {
            --it;
            if (uncompressed(*it))
                uncompressedInside = true;
            else if (uncompressedInside)
                *it = static_cast<int>(RankFormat::UOP);
        }
    }
    return changed;
}

} // namespace sparsemap
