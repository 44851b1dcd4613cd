// The design-aware moves of SparseMap ES (issue 13, search/sparsemap/design_moves) and the rules of the
// product's ES that use them: blocks partition the genome, a crossover hands down whole per-dimension
// tilings, a permutation step swaps two non-unit loops, the neighbourhood has the size counted by
// hand, so do the orders of the unit loops a storage level binds its ranks to, format pairs, factor
// exchanges, one-for-two exchanges at spatial levels (refills) and between temporal levels, re-splits
// of a spatial unrolling, loop relocations, repairs (uncompressedVariants), moves of blocks of equal
// factors and follow-ups (followUpNeighbours, counted by hand) leave local optima of the other moves,
// spatial draws (with the MACs filled by one dim: the fullest of several fills) unroll as counted, the
// ES never evaluates a canonical genome twice, and the published variant keeps its genome space (no
// canonical form).
#include "genome/cantor.hpp"
#include "genome/genome_codec.hpp"
#include "io/architecture_io.hpp"
#include "io/workload_io.hpp"
#include "search/sparsemap/design_moves.hpp"
#include "search/sparsemap/sparsemap_es.hpp"
#include "search/es/evolution_loop.hpp"
#include "search/es/genetic_operators.hpp"
#include "search/method_registry.hpp"
#include "genome/genome_text.hpp"
#include "model/genome_evaluator.hpp"
#include "search/genome_checks.hpp"
#include "sparse/rank_format.hpp"

#include "sample_inputs.hpp"
#include "test_support.hpp"

#include <QtTest>

#include <functional>
#include <map>
#include <set>

using namespace sparsemap;
using namespace sparsemap::search;

namespace {

GenomeLayout mm3Cloud()
{
    return test::sampleLayout("spmm-32x64x48", "cloud");
}

GenomeLayout mm3CloudPaper()
{
    return test::sampleLayout("mm3", "cloud");
}

GenomeLayout mm11Mobile()
{
    return test::sampleLayout("mm11", "mobile");
}

// The tiling genes of the dim named `name`, in genome order (its prime factors ascending; `sparsemap
// info --genes` numbers them from 1).
std::vector<int> dimGenes(const GenomeLayout& layout, const std::string& name)
{
    const auto tiling = layout.segment(GeneSegment::Tiling);
    std::vector<int> genes;
    for (int i = tiling.begin; i < tiling.end; ++i)
        if (layout.workload().dims[layout.gene(i).dim].name == name)
            genes.push_back(i);
    return genes;
}

// N's factors in SpMM 32x64x48 (N = 2^4 x 3): the gene of its 3 and those of its four 2s.
std::pair<int, std::vector<int>> nFactors(const GenomeLayout& layout)
{
    int three = -1;
    std::vector<int> twos;
    for (int i : dimGenes(layout, "N")) {
        if (layout.gene(i).factor == 3)
            three = i;
        else
            twos.push_back(i);
    }
    return {three, twos};
}

// Every factor of SpMM 32x64x48 at DRAM but two of N's 2s (twoA, twoB) at `level`: `refills` (a
// refill neighbourhood) trades them back for N's 3 - one neighbour, the 3 to `level` and the two 2s
// to DRAM - and with carried formats has it twice.
void checkOneRefillBack(const GenomeLayout& layout,
                        void (DesignMoves::*refills)(const Genome&, std::vector<Genome>&) const, int level,
                        int twoA, int twoB)
{
    const auto [three, nTwos] = nFactors(layout);
    Genome g = test::allFactorsAtDram(layout);
    g[nTwos[static_cast<std::size_t>(twoA)]] = g[nTwos[static_cast<std::size_t>(twoB)]] = level;
    std::vector<Genome> out;
    (DesignMoves(layout, DesignMoves::Formats::Positional).*refills)(g, out);
    QCOMPARE(out.size(), std::size_t(1));
    Genome byHand = g;
    byHand[three] = level;
    byHand[nTwos[static_cast<std::size_t>(twoA)]] = byHand[nTwos[static_cast<std::size_t>(twoB)]] = 1;
    QCOMPARE(out[0], byHand);
    std::vector<Genome> both;
    (DesignMoves(layout, DesignMoves::Formats::Both).*refills)(g, both);
    QCOMPARE(both.size(), std::size_t(2));
}

// The genes where a neighbour differs from the genome it was made from, in genome order.
std::vector<int> changedGenes(const Genome& from, const Genome& to)
{
    const auto move = geneChanges(from, to); // (index, value) pairs
    std::vector<int> changed;
    for (std::size_t k = 0; k < move.size(); k += 2)
        changed.push_back(move[k]);
    return changed;
}

// mm3 on cloud with every factor at DRAM and the S/G genes 0; P compressed at its innermost rank (RLE),
// Z at its two (B, CP), Q uncompressed.
Genome mm3PAndZCompressed(const GenomeLayout& layout)
{
    Genome g = test::allFactorsAtDram(layout);
    const auto p = layout.formatSegment(0);
    const auto z = layout.formatSegment(2);
    g[p.end - 1] = static_cast<int>(RankFormat::RLE);
    g[z.end - 2] = static_cast<int>(RankFormat::B);
    g[z.end - 1] = static_cast<int>(RankFormat::CP);
    return g;
}

// The loops with bound > 1 of mapping level `level`, outer to inner.
std::vector<int> nonUnitLoops(const GenomeLayout& layout, const Genome& g, int level)
{
    const Design d = decodeGenome(layout, g);
    std::vector<int> loops;
    for (int dim : d.mapping.levels[level].order)
        if (d.mapping.levels[level].bounds[dim] > 1)
            loops.push_back(dim);
    return loops;
}

// The lowest EDP among the valid designs of `candidates`, each first prepared as the ES would
// (`prepare` returns false for one the ES would not evaluate); +inf when none is valid.
double lowestValidEdp(model::GenomeEvaluator& evaluator, std::vector<Genome> candidates,
                      const std::function<bool(Genome&)>& prepare, Genome* argmin = nullptr)
{
    double lowest = std::numeric_limits<double>::infinity();
    for (auto& c : candidates) {
        if (!prepare(c))
            continue;
        const auto& r = evaluator.evaluate(c);
        if (r.valid && r.edp < lowest) {
            lowest = r.edp;
            if (argmin)
                *argmin = c;
        }
    }
    return lowest;
}

// lowestValidEdp of candidates prepared as the polish prepares its neighbours: canonical, and left out
// when their spatial fan-out cannot fit.
double lowestCanonicalEdp(const GenomeLayout& layout, model::GenomeEvaluator& evaluator,
                          std::vector<Genome> candidates, Genome* argmin = nullptr)
{
    return lowestValidEdp(
        evaluator, std::move(candidates),
        [&](Genome& c) {
            canonicalizeGenome(layout, c);
            return spatialFanoutFits(layout, c);
        },
        argmin);
}

// A design where runs of a cell got stuck: its layout, genome and EDP, the moves with formats both as
// they are and carried (as the polish has them), and the lowest EDP among candidates prepared as the
// polish prepares them. Built in place (the evaluator and the moves hold the layout).
struct Trap {
    Trap(GenomeLayout cell, const char* genome)
        : layout(std::move(cell)), stuck(parseGenomeText(genome)), evaluator(layout),
          edp(evaluator.evaluate(stuck).edp)
    {
    }
    Trap(const Trap&) = delete;
    Trap& operator=(const Trap&) = delete;

    double best(std::vector<Genome> candidates)
    {
        return lowestCanonicalEdp(layout, evaluator, std::move(candidates));
    }
    // Whether its EDP is the one recorded when the trap was found (to 1e-5).
    bool atRecorded(double value) const { return std::abs(edp / value - 1) < 1e-5; }
    using Kind = void (DesignMoves::*)(const Genome&, std::vector<Genome>&) const;
    // The stuck design's neighbours of one kind.
    std::vector<Genome> of(Kind kind) const
    {
        std::vector<Genome> out;
        (moves.*kind)(stuck, out);
        return out;
    }
    // ... with the formats as they are only (no carried variants).
    std::vector<Genome> positional(Kind kind) const
    {
        std::vector<Genome> out;
        (DesignMoves(layout, DesignMoves::Formats::Positional).*kind)(stuck, out);
        return out;
    }
    // Whether no neighbour of these kinds is better.
    bool noneImproves(std::initializer_list<Kind> kinds)
    {
        return std::all_of(kinds.begin(), kinds.end(), [&](Kind k) { return best(of(k)) >= edp; });
    }
    // Whether the canonical genome `g` is among `candidates` made canonical.
    bool among(const std::vector<Genome>& candidates, const Genome& g) const
    {
        return std::any_of(candidates.begin(), candidates.end(),
                           [&](Genome c) { return canonicalizeGenome(layout, c), c == g; });
    }
    // Whether a single move, a format pair or a factor exchange is better.
    bool otherTiersImprove()
    {
        return best(of(&DesignMoves::neighbours)) < edp ||
               best(of(&DesignMoves::formatPairNeighbours)) < edp ||
               best(of(&DesignMoves::factorExchangeNeighbours)) < edp;
    }

    const GenomeLayout layout;
    const Genome stuck;
    model::GenomeEvaluator evaluator;
    const double edp;
    const DesignMoves moves{layout, DesignMoves::Formats::Both};
};

} // namespace

class TestSearchDesignMoves : public QObject {
    Q_OBJECT
private slots:
    // GLB -> 4 PEs in a row, one MAC each: the one spatial level that can take a factor unrolls up to
    // 4. M = 4 (2 x 2), K = 1 (no factor), N = 2. Worked by hand: k of the 3 dims (the dims uniform) give
    // their factors, which fill the level to 4 when M is among them, to 2 with N and not M, to 1 with K
    // alone. Half the draws then trim to at most the fill's product raised to u, u uniform in [0, 1):
    // 4 -> 2 when u >= 1/2, else 1; 2 -> 1. So the unrolling is 4 with p fill4 / 2, 2 with
    // fill4 / 4 + fill2 / 2, 1 with the rest.
    // - k uniform in 1..3 (oneDimShare 0): M alone (1/3 x 1/3), {M, K} or {M, N} (1/3 x 2/3), all three
    //   (1/3): fill4 = 2/3; N alone or {K, N}: fill2 = 2/9. Unrolling 4: 6/18, 2: 5/18, 1: 7/18.
    // - k = 1 always (oneDimShare 1): fill4 = fill2 = 1/3. Unrolling 4: 1/6, 2: 1/12 + 1/6 = 1/4,
    //   1: 7/12.
    void spatialUnrollingIsDrawnAsCounted_data()
    {
        QTest::addColumn<double>("oneDimShare");
        QTest::addColumn<double>("four");
        QTest::addColumn<double>("two");
        QTest::addColumn<double>("one");
        QTest::newRow("uniform dim count") << 0.0 << 6.0 / 18 << 5.0 / 18 << 7.0 / 18;
        QTest::newRow("one dim") << 1.0 << 1.0 / 6 << 1.0 / 4 << 7.0 / 12;
    }
    void spatialUnrollingIsDrawnAsCounted()
    {
        QFETCH(double, oneDimShare);
        QFETCH(double, four);
        QFETCH(double, two);
        QFETCH(double, one);
        Architecture arch = test::templateArchitecture(4, 1);
        arch.levels[2].meshX = 4;
        const GenomeLayout layout(makeSpmm("m4-k1-n2", 4, 1, 2, uniformDensity(0.5), uniformDensity(0.5)),
                                  arch);
        const DesignMoves moves(layout);
        const auto ranges = geneRanges(layout);
        const auto tiling = layout.segment(GeneSegment::Tiling);
        int spatialSlot = -1; // the GLB -> PE level (the PE -> MAC one has fan-out 1)
        for (std::size_t k = 0; k < layout.mappingLevels().size(); ++k)
            if (layout.mappingLevels()[k].kind == LoopKind::Spatial &&
                layout.mappingLevels()[k].storageLevel == 1)
                spatialSlot = static_cast<int>(k) + 1;
        QVERIFY(spatialSlot > 0);
        auto isSpatial = [&](int v) {
            return layout.mappingLevels()[static_cast<std::size_t>(v - 1)].kind == LoopKind::Spatial;
        };
        std::mt19937_64 rng(2026);
        constexpr int kDraws = 36000;
        std::map<std::int64_t, int> unrolled;
        for (int n = 0; n < kDraws; ++n) {
            const Genome before = randomIndividual(ranges, rng);
            Genome g = before;
            moves.drawSpatialUnrolling(g, rng, oneDimShare);
            QVERIFY(spatialFanoutFits(layout, g));
            std::int64_t product = 1;
            for (int i = 0; i < layout.size(); ++i) {
                if (i < tiling.begin || i >= tiling.end) {
                    QCOMPARE(g[i], before[i]); // only the tiling genes move
                    continue;
                }
                QVERIFY(g[i] == spatialSlot || !isSpatial(g[i])); // the MACs' fan-out is 1
                if (g[i] == spatialSlot)
                    product *= layout.gene(i).factor;
            }
            ++unrolled[product];
        }
        QCOMPARE(unrolled.size(), std::size_t{3});
        // 36,000 draws: a share's standard error is at most 0.0026; 0.012 is over four of them.
        QVERIFY(std::abs(unrolled[4] / double(kDraws) - four) < 0.012);
        QVERIFY(std::abs(unrolled[2] / double(kDraws) - two) < 0.012);
        QVERIFY(std::abs(unrolled[1] / double(kDraws) - one) < 0.012);
    }

    void innerOneDimDrawsKeepTheFullestFill()
    {
        // One PE of 6 MACs (the GLB -> PE fan-out is 1), M = K = N = 12 = 2 x 2 x 3. A draw with
        // innerOneDimFit gives the MACs one dim; one random order of its factors fills them with 6 (a 3
        // among the first two) or, with probability 1/3 (both 2s first), with 4, which a 3 no longer
        // fits. The fullest of 8 orders is 4 with probability (1/3)^8 < 0.0002, and no factor leaves.
        const GenomeLayout layout(
            makeSpmm("m12-k12-n12", 12, 12, 12, uniformDensity(0.5), uniformDensity(0.5)),
            test::templateArchitecture(1, 6));
        const DesignMoves moves(layout);
        const auto ranges = geneRanges(layout);
        const auto tiling = layout.segment(GeneSegment::Tiling);
        int macSlot = -1;
        for (std::size_t k = 0; k < layout.mappingLevels().size(); ++k)
            if (layout.mappingLevels()[k].kind == LoopKind::Spatial)
                macSlot = static_cast<int>(k) + 1; // the innermost spatial level
        QVERIFY(macSlot > 0);
        std::mt19937_64 rng(2026);
        constexpr int kDraws = 3000;
        std::map<std::int64_t, int> fills, single;
        for (int n = 0; n < kDraws; ++n) {
            for (const bool fit : {true, false}) {
                Genome g = randomIndividual(ranges, rng);
                moves.drawSpatialUnrolling(g, rng, 1.0, fit);
                QVERIFY(spatialFanoutFits(layout, g));
                QVERIFY(moves.innerSpatialOneDim(g));
                std::set<int> dims;
                std::int64_t product = 1;
                for (int i = tiling.begin; i < tiling.end; ++i)
                    if (g[i] == macSlot) {
                        dims.insert(layout.gene(i).dim);
                        product *= layout.gene(i).factor;
                    }
                ++(fit ? fills : single)[product];
                if (fit)
                    QCOMPARE(dims.size(), std::size_t{1});
            }
        }
        // 6 or 4; 4 expected in 3000 x (1/3)^8 = 0.46 draws (7 or more: probability < 1e-6).
        QCOMPARE(fills[6] + fills[4], kDraws);
        QVERIFY(fills[4] <= 6);
        // Without the fit: one order fills 6 in 2/3 of the draws, and half of the draws then lose factors
        // (to at most 6^u, u uniform in [0, 1)): 6 in 1/3 of them (standard error 0.009).
        QVERIFY(std::abs(single[6] / double(kDraws) - 1.0 / 3) < 0.05);
    }

    void innerSpatialOneDimCountsTheDimsAtTheMacs()
    {
        // spmm-32x64x48 on cloud: spatial levels 3 (GLB -> PE) and 5 (PE -> MAC).
        const auto layout = mm3Cloud();
        const DesignMoves moves(layout);
        const auto tiling = layout.segment(GeneSegment::Tiling);
        Genome g(static_cast<std::size_t>(layout.size()), 0);
        for (int i = tiling.begin; i < tiling.end; ++i)
            g[i] = 1;
        QVERIFY(moves.innerSpatialOneDim(g)); // nothing unrolled
        std::vector<int> m, k, n;             // each dim's tiling genes
        for (int i = tiling.begin; i < tiling.end; ++i) {
            const auto& gene = layout.gene(i);
            (gene.dim == 0 ? m : gene.dim == 1 ? k : n).push_back(i);
        }
        QCOMPARE(n.size(), std::size_t{5}); // N = 2^4 x 3
        g[k[0]] = g[k[1]] = 5;
        g[m[0]] = g[m[1]] = 3; // two dims at the PEs do not count
        g[n[0]] = 3;
        QVERIFY(moves.innerSpatialOneDim(g)); // K 4 alone at the MACs
        g[n[0]] = 5;
        QVERIFY(!moves.innerSpatialOneDim(g)); // K 4 x N 2
    }

    void spatialUnrollingIsTheProductPerLevelAndDim()
    {
        // spmm-32x64x48 on cloud: M = 2^5, K = 2^6, N = 2^4 x 3; spatial levels 3 (GLB -> PE) and 5
        // (PE -> MAC). Two of M's 2s at level 3, one of K's 2s and N's 3 at level 5, the rest at DRAM:
        // (M, K, N) = (4, 1, 1) at level 3 and (1, 2, 3) at level 5, worked by hand.
        const auto layout = mm3Cloud();
        const DesignMoves moves(layout);
        const auto tiling = layout.segment(GeneSegment::Tiling);
        auto factorGenes = [&](int dim, int factor) {
            std::vector<int> genes;
            for (int i = tiling.begin; i < tiling.end; ++i)
                if (layout.gene(i).dim == dim && layout.gene(i).factor == factor)
                    genes.push_back(i);
            return genes;
        };
        const auto m2 = factorGenes(0, 2), k2 = factorGenes(1, 2), n3 = factorGenes(2, 3);
        QCOMPARE(m2.size(), std::size_t(5));
        QCOMPARE(k2.size(), std::size_t(6));
        QCOMPARE(n3.size(), std::size_t(1));
        Genome g(static_cast<std::size_t>(layout.size()), 0);
        for (int i = tiling.begin; i < tiling.end; ++i)
            g[i] = 1;
        g[m2[0]] = g[m2[1]] = 3;
        g[k2[0]] = g[n3[0]] = 5;
        const std::vector<std::int64_t> expected{4, 1, 1, 1, 2, 3};
        QCOMPARE(moves.spatialUnrolling(g), expected);
        // The same factors at the spatial levels, others moved between temporal levels and the equal
        // factors of M and K placed on other genes: the same unrolling.
        Genome same = g;
        same[m2[0]] = 4;
        same[m2[4]] = 3;
        same[k2[0]] = 2;
        same[k2[3]] = 5;
        same[m2[2]] = 4;
        QCOMPARE(moves.spatialUnrolling(same), expected);
        // N's 3 from the MACs to the PEs: another unrolling.
        Genome other = g;
        other[n3[0]] = 3;
        QCOMPARE(moves.spatialUnrolling(other), (std::vector<std::int64_t>{4, 1, 3, 1, 2, 1}));
    }

    void blocksPartitionTheGenome()
    {
        const auto layout = mm3Cloud();
        const DesignMoves moves(layout);
        std::vector<int> seen(static_cast<std::size_t>(layout.size()), 0);
        for (const auto& block : moves.blocks())
            for (int i : block)
                ++seen[static_cast<std::size_t>(i)];
        for (int count : seen)
            QCOMPARE(count, 1);
        // 5 permutation genes + 3 dims' tilings + 3 tensors' formats + 3 S/G sites (cloud: GLB, PE
        // buffer, compute).
        QCOMPARE(moves.blocks().size(), std::size_t(5 + 3 + 3 + 3));
    }

    void crossoverHandsDownWholeTilings()
    {
        const auto layout = mm3Cloud();
        const DesignMoves moves(layout);
        std::mt19937_64 rng(3);
        Genome a(static_cast<std::size_t>(layout.size())), b(a.size());
        for (int i = 0; i < layout.size(); ++i) {
            a[i] = layout.gene(i).lower;
            b[i] = layout.gene(i).upper;
        }
        const auto tiling = layout.segment(GeneSegment::Tiling);
        int mixed = 0;
        for (int n = 0; n < 50; ++n) {
            const Genome c = moves.blockCrossover(a, b, rng);
            bool fromA = false, fromB = false;
            for (int dim = 0; dim < 3; ++dim) {
                std::set<int> values;
                for (int i = tiling.begin; i < tiling.end; ++i)
                    if (layout.gene(i).dim == dim)
                        values.insert(c[i]);
                QCOMPARE(values.size(), std::size_t(1)); // all from a (1) or all from b (5)
                (*values.begin() == 1 ? fromA : fromB) = true;
            }
            mixed += fromA && fromB;
        }
        QVERIFY(mixed > 10); // 3/4 of the children mix the parents' tilings
    }

    void permutationStepSwapsTwoNonUnitLoops()
    {
        const auto layout = mm3Cloud();
        const DesignMoves moves(layout);
        std::mt19937_64 rng(7);
        // Every factor at level 1 (DRAM): its three loops are non-unit, the other levels have none.
        const Genome g = test::allFactorsAtDram(layout);
        const auto perm = layout.segment(GeneSegment::Permutation);
        Genome h = g;
        QVERIFY(!moves.step(h, perm.begin + 1, rng)); // level 2 has no non-unit loop
        QCOMPARE(h, g);
        for (int n = 0; n < 20; ++n) {
            h = g;
            QVERIFY(moves.step(h, perm.begin, rng));
            const auto before = nonUnitLoops(layout, g, 0);
            const auto after = nonUnitLoops(layout, h, 0);
            int differ = 0;
            for (std::size_t k = 0; k < before.size(); ++k)
                differ += before[k] != after[k];
            QCOMPARE(differ, 2); // two adjacent loops exchanged
            QVERIFY(std::is_permutation(before.begin(), before.end(), after.begin()));
        }
    }

    void neighbourhoodHasEverySingleMove()
    {
        const auto layout = mm3Cloud();
        const DesignMoves moves(layout);
        const Genome g = test::allFactorsAtDram(layout);
        const auto tiling = layout.segment(GeneSegment::Tiling);
        std::vector<Genome> out;
        moves.neighbours(g, out);
        // Counted by hand: each tiling gene to 4 other levels, each format gene to 4 other formats,
        // each S/G gene to 6 other values, and DRAM's 3 non-unit loops give 2 adjacent swaps.
        const int tilingGenes = tiling.size();
        const int formatGenes = 15;
        const int sgGenes = layout.segment(GeneSegment::SkipGate).size();
        QCOMPARE(static_cast<int>(out.size()), tilingGenes * 4 + formatGenes * 4 + sgGenes * 6 + 2);
        for (const auto& n : out) {
            int differ = 0;
            for (int i = 0; i < layout.size(); ++i)
                differ += n[i] != g[i];
            QCOMPARE(differ, 1);
        }
    }

    void skipGateChangesAreTheSingleMovesTheFirstTierCanLeaveOut()
    {
        // The single moves without the S/G changes, and the S/G changes alone (6 other values of each
        // S/G gene), make up the whole neighbourhood, in its order.
        const auto layout = mm3Cloud();
        const DesignMoves moves(layout);
        const Genome g = test::allFactorsAtDram(layout);
        const auto sg = layout.segment(GeneSegment::SkipGate);
        std::vector<Genome> all, withoutSg, sgOnly;
        moves.neighbours(g, all);
        moves.neighboursWithoutSkipGate(g, withoutSg);
        moves.skipGateNeighbours(g, sgOnly);
        QCOMPARE(static_cast<int>(sgOnly.size()), sg.size() * 6);
        for (const auto& n : sgOnly) {
            const auto changed = changedGenes(g, n);
            QCOMPARE(changed.size(), std::size_t(1));
            QCOMPARE(layout.gene(changed[0]).segment, GeneSegment::SkipGate);
        }
        for (const auto& n : withoutSg)
            for (int i = sg.begin; i < sg.end; ++i)
                QCOMPARE(n[i], g[i]);
        std::vector<Genome> joined = withoutSg;
        joined.insert(joined.end(), sgOnly.begin(), sgOnly.end());
        QCOMPARE(joined, all); // the S/G genes come last in the genome, so last in its neighbourhood
    }

    void boundLoopOrdersReorderTheUnitLoopsRanksAreBoundTo()
    {
        // mm3-like SpMM on cloud (mapping levels L1_T DRAM, L2_T and L2_S GLB, L3_T and L3_S PE buffer)
        // with every factor at L3_T, P and Z compressed. Sparseloop binds a storage level's ranks to the
        // loops of its innermost mapping level, unit loops included, folding the extents below into
        // them. Counted by hand: DRAM's L1_T orders its unit loops M, N, K (all have extents below, and
        // P (M, K) and Z (M, N) have metadata at every level: 2 swaps), the GLB's L2_S too (2); L3_T's
        // loops are non-unit (its 2 swaps are single moves), L2_T is not the GLB's innermost level and
        // L3_S has nothing below it. Uncompressed, no tile has metadata: no bound unit loop.
        const auto layout = mm3Cloud();
        const DesignMoves moves(layout);
        const auto tiling = layout.segment(GeneSegment::Tiling);
        const auto perm = layout.segment(GeneSegment::Permutation);
        auto swapsPerLevel = [&](const std::vector<Genome>& moved, const Genome& from) {
            std::map<int, int> swaps;
            for (const auto& n : moved)
                for (int i = perm.begin; i < perm.end; ++i)
                    if (n[i] != from[i])
                        ++swaps[layout.gene(i).mappingLevel];
            return swaps;
        };
        Genome g = mm3PAndZCompressed(layout);
        Genome uncompressed = test::allFactorsAtDram(layout);
        for (int i = tiling.begin; i < tiling.end; ++i)
            g[i] = uncompressed[i] = 4;
        std::vector<Genome> singles, bound;
        moves.neighbours(g, singles);
        QCOMPARE(swapsPerLevel(singles, g), (std::map<int, int>{{3, 2}}));
        moves.boundLoopOrderNeighbours(g, bound);
        QCOMPARE(bound.size(), std::size_t{4});
        QCOMPARE(swapsPerLevel(bound, g), (std::map<int, int>{{0, 2}, {2, 2}}));
        // Each is another design: its canonical genome is not g's.
        const Genome c = canonicalGenome(layout, g);
        for (const auto& n : bound)
            QVERIFY(canonicalGenome(layout, n) != c);
        std::vector<Genome> none;
        moves.boundLoopOrderNeighbours(uncompressed, none);
        QVERIFY(none.empty());
    }

    void carriedMovesKeepEachLoopsFormat()
    {
        // Formats::Both: every mapping move (tiling gene, loop swap) comes twice, as it is and with the
        // formats carried along (genome_codec's carryFormats); Formats::Carried: only the latter.
        const auto layout = mm3Cloud();
        const Genome g = test::allFactorsAtDram(layout);
        std::vector<Genome> positional, both, carried;
        DesignMoves(layout).neighbours(g, positional);
        DesignMoves(layout, DesignMoves::Formats::Both).neighbours(g, both);
        DesignMoves(layout, DesignMoves::Formats::Carried).neighbours(g, carried);
        const int mappingMoves = layout.segment(GeneSegment::Tiling).size() * 4 + 2;
        QCOMPARE(both.size(), positional.size() + static_cast<std::size_t>(mappingMoves));
        QCOMPARE(carried.size(), positional.size());
        const auto formats = layout.segment(GeneSegment::Format).begin;
        for (std::size_t i = 0; i < positional.size(); ++i) {
            Genome expected = positional[i];
            bool mapping = false;
            for (int gene = 0; gene < formats; ++gene)
                mapping |= expected[gene] != g[gene];
            if (mapping)
                carryFormats(layout, g, expected);
            QCOMPARE(carried[i], expected);
        }
    }

    void formatPairsChangeTwoUsedGenesOfOneTensor()
    {
        // All factors at DRAM: each of P, Q, Z has two ranks there (two of the dims M, K, N), so its
        // last two format genes are used: one pair x 4 x 4 other values per tensor.
        const auto layout = mm3Cloud();
        const DesignMoves moves(layout);
        const Genome g = test::allFactorsAtDram(layout);
        std::vector<Genome> out;
        moves.formatPairNeighbours(g, out);
        QCOMPARE(out.size(), std::size_t(3 * 16));
        std::set<Genome> distinct(out.begin(), out.end());
        QCOMPARE(distinct.size(), out.size());
        for (const auto& n : out) {
            const auto changed = changedGenes(g, n);
            QCOMPARE(changed.size(), std::size_t(2));
            const auto& first = layout.gene(changed[0]);
            QCOMPARE(layout.gene(changed[1]).segment, first.segment);
            QCOMPARE(first.formatPosition, kFormatGenesPerTensor - 2);
            QCOMPARE(layout.gene(changed[1]).formatPosition, kFormatGenesPerTensor - 1);
        }
    }

    void compressionMovesMoveATensorsCompressionToAnotherRank()
    {
        // All factors at DRAM: each tensor uses its last two format genes. P is U-RLE there, Q U-U, Z
        // B-UOP. Only P has one compressed and one U gene: its RLE rank turns U and the other takes each
        // of the 4 compressed formats. Q (nothing to move) and Z (no U rank to move to) have none.
        const auto layout = mm3Cloud();
        const DesignMoves moves(layout);
        Genome g = test::allFactorsAtDram(layout);
        const auto p = layout.formatSegment(0), z = layout.formatSegment(2);
        g[p.end - 1] = static_cast<int>(RankFormat::RLE);
        g[z.end - 2] = static_cast<int>(RankFormat::B);
        g[z.end - 1] = static_cast<int>(RankFormat::UOP);
        std::vector<Genome> out;
        moves.compressionMoveNeighbours(g, out);
        QCOMPARE(out.size(), std::size_t(4));
        std::set<int> outerFormats;
        for (const auto& n : out) {
            QCOMPARE(changedGenes(g, n), (std::vector<int>{p.end - 2, p.end - 1}));
            QCOMPARE(n[p.end - 1], static_cast<int>(RankFormat::U));
            outerFormats.insert(n[p.end - 2]);
        }
        QCOMPARE(outerFormats, (std::set<int>{1, 2, 3, 4}));
        // Every compression move is a format pair.
        std::vector<Genome> pairs;
        moves.formatPairNeighbours(g, pairs);
        for (const auto& n : out)
            QVERIFY(std::find(pairs.begin(), pairs.end(), n) != pairs.end());
    }

    void aFormatPairLeavesALocalOptimumOfSingleMoves()
    {
        // mm11 on mobile: the design every seed of the single-move polish ended in (EDP 5.90e6), P stored
        // U(K3)-U(M4)-U(K4)-RLE(K5). No single move improves it; compressing P at K4 instead (UOP there, K5
        // uncompressed: two genes, each worse or invalid alone) gives 5.44e6.
        const auto layout = mm11Mobile();
        const Genome optimum = parseGenomeText("1,1,2,1,1,4,4,4,4,4,4,4,3,3,3,4,4,5,5,5,5,5,4,4,4,4,4,4,5,"
                                               "0,0,0,0,2,0,0,0,0,2,0,0,0,0,2,3,6,5");
        model::GenomeEvaluator evaluator(layout);
        const double edp = evaluator.evaluate(optimum).edp;
        QVERIFY(std::abs(edp / 5.90031e6 - 1) < 1e-5);
        auto best = [&](std::vector<Genome> candidates) {
            return lowestValidEdp(evaluator, std::move(candidates), [&](Genome& c) {
                orderFormatGenesForSparseloop(layout, c);
                return true;
            });
        };
        std::vector<Genome> single, pairs;
        DesignMoves(layout, DesignMoves::Formats::Both).neighbours(optimum, single);
        DesignMoves(layout).formatPairNeighbours(optimum, pairs);
        QVERIFY(best(single) >= edp);
        const double paired = best(pairs);
        QVERIFY2(paired < edp && std::abs(paired / 5.44209e6 - 1) < 1e-3,
                 qPrintable(QString::number(paired)));
        // The pair is a move of P's compression (RLE on K5 -> UOP on K4), so the compression moves
        // alone find it too.
        std::vector<Genome> compressionMoves;
        DesignMoves(layout).compressionMoveNeighbours(optimum, compressionMoves);
        QCOMPARE(best(compressionMoves), paired);
    }

    void factorExchangesSwapTheLevelsOfTwoFactors()
    {
        // SpMM 32x64x48: M = 2^5, N = 2^4 x 3, K = 2^6 - 16 prime factors. All at DRAM but one: N's 3
        // at level 2 has 15 partners to exchange with; one of K's 2s there instead has 16 - 6 (the
        // other 2s of K are the same factor: exchanging with one changes nothing).
        const auto layout = mm3Cloud();
        const auto tiling = layout.segment(GeneSegment::Tiling);
        QCOMPARE(tiling.size(), 16);
        int three = -1, kTwo = -1;
        for (int i = tiling.begin; i < tiling.end; ++i) {
            if (layout.gene(i).factor == 3)
                three = i;
            if (layout.workload().dims[layout.gene(i).dim].name == "K")
                kTwo = i;
        }
        QVERIFY(three >= 0 && kTwo >= 0);
        const DesignMoves moves(layout, DesignMoves::Formats::Positional);
        for (auto [moved, expected] : {std::pair{three, 15}, std::pair{kTwo, 10}}) {
            Genome g = test::allFactorsAtDram(layout);
            g[moved] = 2;
            std::vector<Genome> out;
            moves.factorExchangeNeighbours(g, out);
            QCOMPARE(static_cast<int>(out.size()), expected);
            for (const auto& n : out) {
                const auto changed = changedGenes(g, n);
                QCOMPARE(changed.size(), std::size_t(2));
                QVERIFY(changed[0] == moved || changed[1] == moved);
                QCOMPARE(n[changed[0]], g[changed[1]]);
                QCOMPARE(n[changed[1]], g[changed[0]]);
            }
        }
        // Carried formats: each exchange twice (as is, and with the formats carried).
        Genome g = test::allFactorsAtDram(layout);
        g[three] = 2;
        std::vector<Genome> both;
        DesignMoves(layout, DesignMoves::Formats::Both).factorExchangeNeighbours(g, both);
        QCOMPARE(both.size(), std::size_t(30));
    }

    void factorBlocksMoveEqualFactorsTogether()
    {
        // SpMM 32x64x48: M = 2^5, N = 2^4 x 3, K = 2^6, five mapping levels. All at DRAM but one of K's
        // 2s at level 2: the blocks of two or more equal factors at one level are M's five 2s, N's four
        // 2s and K's five 2s at DRAM (N's 3 and the K 2 at level 2 are single factors: single moves),
        // each to the 4 other levels - 12 moves, each setting a whole block to one new level.
        const auto layout = mm3Cloud();
        const auto tiling = layout.segment(GeneSegment::Tiling);
        int kTwo = -1;
        for (int i = tiling.begin; i < tiling.end; ++i)
            if (layout.workload().dims[layout.gene(i).dim].name == "K")
                kTwo = i;
        QVERIFY(kTwo >= 0 && layout.gene(kTwo).upper == 5);
        Genome g = test::allFactorsAtDram(layout);
        g[kTwo] = 2;
        std::vector<Genome> out;
        DesignMoves(layout, DesignMoves::Formats::Positional).factorBlockNeighbours(g, out);
        QCOMPARE(out.size(), std::size_t(12));
        std::map<std::string, int> blockSizes;
        for (const auto& n : out) {
            const auto changed = changedGenes(g, n);
            QVERIFY(!changed.empty());
            for (int i : changed) {
                QCOMPARE(layout.gene(i).segment, GeneSegment::Tiling);
                QCOMPARE(layout.gene(i).factor, std::int64_t(2));
                QCOMPARE(layout.gene(i).dim, layout.gene(changed[0]).dim);
                QCOMPARE(g[i], 1);
                QCOMPARE(n[i], n[changed[0]]);
            }
            QVERIFY(n[kTwo] == 2);
            blockSizes[layout.workload().dims[layout.gene(changed[0]).dim].name] =
                static_cast<int>(changed.size());
        }
        QCOMPARE(blockSizes, (std::map<std::string, int>{{"K", 5}, {"M", 5}, {"N", 4}}));
        // Carried formats: each move twice.
        std::vector<Genome> both;
        DesignMoves(layout, DesignMoves::Formats::Both).factorBlockNeighbours(g, both);
        QCOMPARE(both.size(), std::size_t(24));
    }

    void aBlockMoveLeavesALocalOptimumOfSingleMoves()
    {
        // mm11 on mobile: where every run of seeds 1-20 ended before the block moves (EDP 5.208e6;
        // seed 1). N = 2^7 has six 2s at the PE buffer (level 4) and one at its spatial level (5). No
        // single move and no factor exchange improves it; the six 2s moved to DRAM together do.
        Trap t(mm11Mobile(), "1,1,2,6,1,4,4,4,4,4,4,4,3,3,3,4,4,5,5,5,5,5,4,4,4,4,4,4,5,"
                             "0,0,4,0,0,0,0,0,0,2,0,0,0,0,2,3,6,4");
        QVERIFY2(t.atRecorded(5.20798e6), qPrintable(QString::number(t.edp)));
        QVERIFY(t.best(t.of(&DesignMoves::neighbours)) >= t.edp);
        QVERIFY(t.best(t.of(&DesignMoves::factorExchangeNeighbours)) >= t.edp);
        const auto blocks = t.of(&DesignMoves::factorBlockNeighbours);
        Genome byHand = t.stuck;
        std::vector<int> nTwosAtPe;
        for (int i = 0; i < t.layout.size(); ++i)
            if (t.layout.gene(i).segment == GeneSegment::Tiling &&
                t.layout.workload().dims[static_cast<std::size_t>(t.layout.gene(i).dim)].name == "N" &&
                t.stuck[i] == 4)
                nTwosAtPe.push_back(i);
        QCOMPARE(nTwosAtPe.size(), std::size_t(6));
        for (int i : nTwosAtPe)
            byHand[i] = 1;
        QVERIFY(std::count(blocks.begin(), blocks.end(), byHand) >= 1); // as is (and carried, if the same)
        const auto moved = t.evaluator.evaluate(byHand);
        QVERIFY2(moved.valid, moved.reason.c_str());
        QVERIFY(moved.edp < t.edp);
        QVERIFY(t.best(blocks) <= moved.edp);
    }

    void anExchangeLeavesALocalOptimumOfSinglesAndPairs()
    {
        // mm11 on mobile: where a descent over single moves and format pairs from a random design
        // stopped (EDP 6.2508e6; found by such descents from random starts). No single move and no
        // format pair improves it; an exchange of two prime factors' levels gives 6.0643e6.
        Trap t(mm11Mobile(), "1,1,3,4,4,3,4,4,4,4,4,5,4,4,4,4,4,4,5,5,5,5,3,3,3,4,4,4,5,"
                             "0,0,0,0,2,0,0,0,0,2,0,0,0,0,2,3,6,1");
        QVERIFY2(t.atRecorded(6.25084e6), qPrintable(QString::number(t.edp)));
        QVERIFY(t.best(t.of(&DesignMoves::neighbours)) >= t.edp);
        QVERIFY(t.best(t.of(&DesignMoves::formatPairNeighbours)) >= t.edp);
        const auto exchanges = t.of(&DesignMoves::factorExchangeNeighbours);
        const double exchanged = t.best(exchanges);
        QVERIFY2(std::abs(exchanged / 6.06434e6 - 1) < 1e-5, qPrintable(QString::number(exchanged)));
        // The improving exchange, built by hand: the prime factors of tiling genes 17 (PE buffer, level 4)
        // and 28 (level 5) trade levels.
        const auto tiling = t.layout.segment(GeneSegment::Tiling);
        QVERIFY(tiling.begin <= 17 && 28 < tiling.end && t.stuck[17] == 4 && t.stuck[28] == 5);
        Genome byHand = t.stuck;
        std::swap(byHand[17], byHand[28]);
        canonicalizeGenome(t.layout, byHand);
        QVERIFY(t.among(exchanges, byHand));
        QCOMPARE(t.evaluator.evaluate(byHand).edp, exchanged);
    }

    void refillsTradeOneFactorForTwoAtASpatialLevel()
    {
        // SpMM 32x64x48 on cloud (M = 2^5, N = 2^4 x 3, K = 2^6; level 3 spreads over the PEs, level 5
        // over the MACs), every factor at DRAM but N's 3 at level 3: N's 3 trades with each pair of
        // N's four 2s at DRAM - C(4, 2) = 6 refills, each moving the 3 to DRAM and the pair to level 3.
        // No other: a 2 of N at DRAM has no pair of other factors of N beside it, and M's and K's
        // factors are all 2s at one level. Then the reverse: N's 3 at DRAM and two of N's 2s at level
        // 5 - one refill, the 3 to level 5 and the two 2s to DRAM.
        const auto layout = mm3Cloud();
        const auto [three, nTwos] = nFactors(layout);
        QVERIFY(three >= 0);
        QCOMPARE(nTwos.size(), std::size_t(4));
        const DesignMoves moves(layout, DesignMoves::Formats::Positional);
        Genome g = test::allFactorsAtDram(layout);
        g[three] = 3;
        std::vector<Genome> out;
        moves.factorRefillNeighbours(g, out);
        QCOMPARE(out.size(), std::size_t(6));
        std::set<std::pair<int, int>> pairs;
        for (const auto& n : out) {
            const auto changed = changedGenes(g, n);
            QCOMPARE(changed.size(), std::size_t(3));
            QCOMPARE(n[three], 1);
            std::vector<int> moved;
            for (int i : changed)
                if (i != three) {
                    QVERIFY(std::count(nTwos.begin(), nTwos.end(), i) == 1);
                    QCOMPARE(n[i], 3);
                    moved.push_back(i);
                }
            QCOMPARE(moved.size(), std::size_t(2));
            pairs.insert({moved[0], moved[1]});
        }
        QCOMPARE(pairs.size(), std::size_t(6));
        checkOneRefillBack(layout, &DesignMoves::factorRefillNeighbours, 5, 0, 2);
    }

    void resplitsTradeThreeOrMoreFactorsOfADimAtASpatialLevel()
    {
        // mm4 on mobile (N = 7680 = 2^9 x 3 x 5; 256 PEs on a 16 x 16 mesh), every factor at DRAM but
        // four of N's 2s at level 3, the PEs: N 16. Re-splits at the PEs trade N's 2s there for N's 3
        // and 5 at DRAM - no prime on both sides, three factors or more, N's unrolling changing by at
        // most 2x, the fan-out fitting: three 2s for the 5 (N 10) and four 2s for the 3 and the 5
        // (N 15). Not: three 2s for the 3 (8 / 3 > 2), three 2s for the 3 and the 5 (N 30 fits neither
        // a row nor a column of 16), two 2s for the 5 (a one-for-two refill), and nothing at the MACs
        // (no factor there).
        const auto layout = test::sampleLayout("mm4", "mobile");
        std::vector<int> twos;
        int three = -1, five = -1;
        for (int i : dimGenes(layout, "N")) {
            const auto factor = layout.gene(i).factor;
            if (factor == 2)
                twos.push_back(i);
            else if (factor == 3)
                three = i;
            else if (factor == 5)
                five = i;
        }
        QCOMPARE(twos.size(), std::size_t(9));
        QVERIFY(three >= 0 && five >= 0);
        Genome g = test::allFactorsAtDram(layout);
        for (int k = 0; k < 4; ++k)
            g[twos[k]] = 3;
        Genome ten = g, fifteen = g;
        ten[twos[0]] = ten[twos[1]] = ten[twos[2]] = 1;
        ten[five] = 3;
        for (int k = 0; k < 4; ++k)
            fifteen[twos[k]] = 1;
        fifteen[three] = fifteen[five] = 3;
        const DesignMoves moves(layout, DesignMoves::Formats::Positional);
        std::vector<Genome> out;
        moves.spatialResplitNeighbours(g, out);
        QCOMPARE(std::set<Genome>(out.begin(), out.end()), (std::set<Genome>{ten, fifteen}));
        QCOMPARE(out.size(), std::size_t(2));
        // And back from N 15: the 3 and the 5 for three of DRAM's 2s (N 8) or four (N 16, the start);
        // not five (N 32 fits no row), nor the 5 alone for three 2s (N 24).
        Genome eight = fifteen;
        eight[three] = eight[five] = 1;
        eight[twos[0]] = eight[twos[1]] = eight[twos[2]] = 3;
        out.clear();
        moves.spatialResplitNeighbours(fifteen, out);
        QCOMPARE(std::set<Genome>(out.begin(), out.end()), (std::set<Genome>{eight, g}));
        std::vector<Genome> both;
        DesignMoves(layout, DesignMoves::Formats::Both).spatialResplitNeighbours(g, both);
        QCOMPARE(both.size(), std::size_t(4)); // each with its carried variant
    }

    void aRefillLeavesALocalOptimumOfTheOtherTiers()
    {
        // mm7 on cloud (K = 4608 = 2^9 x 3^2): where the default's seed 1 ended, 2.88906e10 (1.565x the
        // best-known 1.8462e10). Its MACs unroll K 48 (four of K's 2s and a 3); no single move, block
        // move, format pair or factor exchange improves it. The refill that sends the 3 (K#11) to the PE
        // buffer and brings two of K's 2s from there (K#3, K#4) unrolls K 64: 1.8515e10. Both EDPs are
        // Sparseloop's: the oracle (docs/oracle.md) printed the same cycles (1320, 1014) and energies
        // (21886828.92, 18259399.93 pJ) for the two designs' exports (tests/data/oracle/figures.tsv, s9001
        // and s9003, which test_oracle_corpus checks).
        Trap t(test::sampleLayout("mm7", "cloud"),
               "1,1,2,3,2,3,3,4,4,4,4,4,4,3,3,4,4,4,5,5,5,5,4,5,2,2,3,3,3,4,"
               "2,2,0,0,0,0,2,0,0,0,0,2,0,0,0,0,2,6,6,3");
        QVERIFY2(t.atRecorded(2.88906e10), qPrintable(QString::number(t.edp)));
        QVERIFY(!t.otherTiersImprove());
        QVERIFY(t.best(t.of(&DesignMoves::factorBlockNeighbours)) >= t.edp);
        const auto kGenes = dimGenes(t.layout, "K"); // K#number is kGenes[number - 1]
        QCOMPARE(kGenes.size(), std::size_t(11));
        const int k3 = kGenes[2], k4 = kGenes[3], k11 = kGenes[10];
        QVERIFY(t.layout.gene(k11).factor == 3 && t.layout.gene(k3).factor == 2 &&
                t.layout.gene(k4).factor == 2);
        QVERIFY(t.stuck[k11] == 5 && t.stuck[k3] == 4 && t.stuck[k4] == 4);
        Genome byHand = t.stuck;
        byHand[k11] = 4;
        byHand[k3] = byHand[k4] = 5;
        const auto refills = t.of(&DesignMoves::factorRefillNeighbours);
        QVERIFY(std::count(refills.begin(), refills.end(), byHand) >= 1);
        const auto refilled = t.evaluator.evaluate(byHand);
        QVERIFY2(refilled.valid, refilled.reason.c_str());
        QVERIFY2(std::abs(refilled.edp / 1.8515e10 - 1) < 1e-4, qPrintable(QString::number(refilled.edp)));
        QVERIFY(t.best(refills) <= refilled.edp);
    }

    void aResplitLeavesALocalOptimumOfTheOtherTiers()
    {
        // mm6 on mobile (K = 2592 = 2^5 x 3^4; 64 MACs per PE): where the ablation
        // sparsemap-no-resplits ended seed 6, 1.12044e13 (1.204x the best-known). Its MACs unroll K 48
        // (K#2-K#5, four 2s, and K#9, a 3); no move of any other tier improves it. The re-split that
        // sends three of those 2s (K#2-K#4) to the PE buffer and brings two 3s from there (K#6, K#7)
        // unrolls K 54: 1.05494e13, from which the default's seed 6 went on to the best-known. Both
        // EDPs are Sparseloop's: the oracle printed the same cycles (59818, 59818) and energies for the
        // two designs' exports (tests/data/oracle/figures.tsv, s9015 and s9016).
        Trap t(test::sampleLayout("mm6", "mobile"),
               "4,1,6,2,2,1,3,3,3,4,1,1,4,4,3,5,5,5,5,4,4,4,5,2,2,2,3,4,2,2,2,2,"
               "0,0,4,0,0,0,0,4,0,0,0,0,0,0,2,6,6,4");
        QVERIFY2(t.atRecorded(1.12044e13), qPrintable(QString::number(t.edp)));
        QVERIFY(!t.otherTiersImprove());
        QVERIFY(
            t.noneImproves({&DesignMoves::factorBlockNeighbours, &DesignMoves::boundLoopOrderNeighbours,
                            &DesignMoves::factorRefillNeighbours, &DesignMoves::factorBlockExchangeNeighbours,
                            &DesignMoves::factorInsertNeighbours, &DesignMoves::loopRelocationNeighbours,
                            &DesignMoves::temporalRefillNeighbours}));
        const auto kGenes = dimGenes(t.layout, "K"); // K#number is kGenes[number - 1]
        QCOMPARE(kGenes.size(), std::size_t(9));
        for (int k : {1, 2, 3, 4, 8})
            QCOMPARE(t.stuck[kGenes[k]], 5);
        for (int k : {5, 6, 7})
            QCOMPARE(t.stuck[kGenes[k]], 4);
        QVERIFY(t.layout.gene(kGenes[4]).factor == 2 && t.layout.gene(kGenes[5]).factor == 3);
        Genome byHand = t.stuck;
        byHand[kGenes[1]] = byHand[kGenes[2]] = byHand[kGenes[3]] = 4;
        byHand[kGenes[5]] = byHand[kGenes[6]] = 5;
        const auto resplits = t.of(&DesignMoves::spatialResplitNeighbours);
        QVERIFY(std::count(resplits.begin(), resplits.end(), byHand) >= 1);
        const auto resplit = t.evaluator.evaluate(byHand);
        QVERIFY2(resplit.valid, resplit.reason.c_str());
        QVERIFY2(std::abs(resplit.edp / 1.05494e13 - 1) < 1e-5, qPrintable(QString::number(resplit.edp)));
        QVERIFY(t.best(resplits) <= resplit.edp);
    }

    void aResplitKickLeavesTheTrapOfEdgeMm5()
    {
        // mm5 on edge (M = K = N = 8960 = 2^8 x 5 x 7; levels 1 DRAM, 2 GLB, 3 over the PEs, 4 the PE
        // buffer, 5 over the MACs): where 27 of 30 default runs ended before the end game's re-split
        // kicks (SparseMapEsParameters::endgameNeighbourKicks), 1.0226x the best-known. The PEs unroll
        // N 16 x K 2 x M 8, the array's 256 full. The re-split of N to 10 (N#3-N#5, three 2s, to DRAM;
        // N#9, the 5, from there) is 36 % worse and the polish never takes it; trading K's 2 at the PEs
        // (K#7, to the GLB) for one of M's 2s at DRAM (M#3) is invalid before it and, after it, gives
        // N 10 x M 16 at the best-known. The EDPs are Sparseloop's: the oracle printed 12467327 cycles,
        // 1.024213988e10 pJ and 13352431 cycles, 9351926441 pJ for the two designs' exports
        // (tests/data/oracle/figures.tsv, s9017 and s9018).
        Trap t(test::sampleLayout("mm5", "edge"),
               "5,1,6,5,1,1,1,1,3,3,3,4,4,1,4,1,1,1,1,1,1,3,4,1,1,1,1,3,3,3,3,4,4,1,4,"
               "0,0,0,0,2,0,0,0,0,2,0,0,0,4,0,3,6,5");
        QVERIFY2(t.atRecorded(12467327.0 * 1.024213988e10), qPrintable(QString::number(t.edp)));
        QVERIFY(!t.otherTiersImprove());
        const auto mGenes = dimGenes(t.layout, "M"), kGenes = dimGenes(t.layout, "K"),
                   nGenes = dimGenes(t.layout, "N"); // N#number is nGenes[number - 1]
        QCOMPARE(nGenes.size(), std::size_t(10));
        QCOMPARE(t.layout.gene(nGenes[8]).factor, std::int64_t(5));
        for (int n : {2, 3, 4, 5})
            QCOMPARE(t.stuck[nGenes[n]], 3);
        QCOMPARE(t.stuck[nGenes[8]], 1);
        QCOMPARE(t.stuck[kGenes[6]], 3);
        QCOMPARE(t.stuck[mGenes[2]], 1);
        Genome resplit = t.stuck;
        resplit[nGenes[2]] = resplit[nGenes[3]] = resplit[nGenes[4]] = 1;
        resplit[nGenes[8]] = 3;
        const auto resplits = t.of(&DesignMoves::spatialResplitNeighbours);
        QVERIFY(t.among(resplits, canonicalGenome(t.layout, resplit)));
        const auto alone = t.evaluator.evaluate(resplit);
        QVERIFY2(alone.valid, alone.reason.c_str());
        QVERIFY(alone.edp > 1.3 * t.edp);
        Genome trade = t.stuck;
        trade[kGenes[6]] = 2;
        trade[mGenes[2]] = 3;
        QVERIFY(!t.evaluator.evaluate(trade).valid);
        trade[nGenes[2]] = trade[nGenes[3]] = trade[nGenes[4]] = 1;
        trade[nGenes[8]] = 3;
        const auto best = t.evaluator.evaluate(trade);
        QVERIFY2(best.valid, best.reason.c_str());
        QVERIFY2(std::abs(best.edp / (13352431.0 * 9351926441.0) - 1) < 1e-5,
                 qPrintable(QString::number(best.edp)));
        QVERIFY(best.edp < t.edp);
    }

    void aBlockExchangeLeavesALocalOptimumOfTheOtherTiers()
    {
        // conv3 on cloud (K = 2^9, C = 2^7, P = Q = 2^4; levels 1 DRAM, 2 GLB, 3 over the PEs, 4 the PE
        // buffer, 5 over the MACs): where a polish of seed 2 stopped before block exchanges were a tier
        // (EDP 1.16874e10). K's 2s sit at levels 3 (2 of them), 4 (5), 5 (2); C's at 3 (2), 4 (1), 5 (4);
        // P's at 1 (2), 3 (2); Q's at 4 (4). Counted by hand, the blocks of two dims at two levels with
        // two or more 2s each: K3 with C5, P1, Q4; K4 with C3, C5 (2 and 4 of them), P1, P3; K5 with C3,
        // P1, P3, Q4; C3 with P1, Q4; C5 with P1, P3, Q4 (2 and 4); P1 with Q4; P3 with Q4 - 20
        // exchanges (C4 has one 2: its exchanges are single ones), each twice with carried formats.
        Trap t(test::sampleLayout("conv3", "cloud"),
               "597,1,600,334,305,3,3,4,4,4,4,4,5,5,3,3,4,5,5,5,5,1,1,3,3,"
               "4,4,4,4,0,0,4,0,0,4,4,0,0,0,0,0,0,0,0,3,6,4");
        QVERIFY2(t.atRecorded(1.16874e10), qPrintable(QString::number(t.edp)));
        const auto positional = t.positional(&DesignMoves::factorBlockExchangeNeighbours);
        QCOMPARE(positional.size(), std::size_t(20));
        for (const auto& n : positional) {
            const auto move = geneChanges(t.stuck, n);
            QVERIFY(move.size() == 8 || move.size() == 16); // 2 + 2 or 4 + 4 tiling genes
        }
        const auto blocks = t.of(&DesignMoves::factorBlockExchangeNeighbours);
        QCOMPARE(blocks.size(), std::size_t(40));
        QVERIFY(!t.otherTiersImprove());
        QVERIFY(t.noneImproves({&DesignMoves::factorBlockNeighbours, &DesignMoves::factorRefillNeighbours,
                                &DesignMoves::boundLoopOrderNeighbours}));
        const double exchanged = t.best(blocks);
        // The improving exchange, built by hand: K's two 2s at the MACs (K#8, K#9: genes 12, 13) trade
        // levels with C's two over the PEs (C#1, C#2: genes 14, 15), the formats carried - the MACs
        // unroll C 64 alone instead of K 4 x C 16, the PEs K 16 x P 4 instead of K 4 x C 4 x P 4.
        QVERIFY(t.stuck[12] == 5 && t.stuck[13] == 5 && t.stuck[14] == 3 && t.stuck[15] == 3);
        Genome byHand = t.stuck;
        byHand[12] = byHand[13] = 3;
        byHand[14] = byHand[15] = 5;
        carryFormats(t.layout, t.stuck, byHand);
        canonicalizeGenome(t.layout, byHand);
        QVERIFY(t.among(blocks, byHand));
        const auto better = t.evaluator.evaluate(byHand);
        QVERIFY2(better.valid, better.reason.c_str());
        QVERIFY(better.edp < t.edp); // Sparseloop's too (tests/data/oracle/figures.tsv, s9006 and s9007)
        QCOMPARE(exchanged, better.edp);
    }

    void anInsertLeavesALocalOptimumOfTheOtherTiers()
    {
        // mm14 on edge (M = 2^8, K = 2^9, N = 2^11; levels 1 DRAM, 2 GLB, 3 over the PEs, 4 the PE
        // buffer, 5 the PE's one MAC): where the polish of seed 4 stopped (EDP 1.74687e14). Non-unit
        // loops: level 1 N; 2 M; 3 N, M, K; 4 N, K (outer to inner); 5 none. The dims' 2s sit at M: 2, 3;
        // K: 3, 4; N: 1, 3, 4. Counted by hand, the moves that give a dim a loop where it has none, with
        // the places of that loop other than the one the level's order gives it: M to 1 (from 2 or 3:
        // 1 other place each of 2), M to 4 (from 2 or 3: 2 of 3 each), K to 1 or 2 (from 3 or 4: 1 of 2
        // each), N to 2 (from 1, 3 or 4: 1 of 2 each) - 2 + 4 + 4 + 3 = 13 (levels 3 and 5 are spatial:
        // no moves there). Each twice with carried formats.
        Trap t(test::sampleLayout("mm14", "edge"),
               "2,4,5,2,1,2,2,2,2,2,2,3,3,3,3,3,3,4,4,4,4,4,1,1,1,1,1,3,3,4,4,4,4,0,0,0,0,1,0,0,0,4,0,0,"
               "0,0,0,0,6,6,4");
        QVERIFY2(t.atRecorded(1.74687e14), qPrintable(QString::number(t.edp)));
        const auto positional = t.positional(&DesignMoves::factorInsertNeighbours);
        QCOMPARE(positional.size(), std::size_t(13));
        const auto perm = t.layout.segment(GeneSegment::Permutation);
        const auto tiling = t.layout.segment(GeneSegment::Tiling);
        for (const auto& n : positional) {
            const auto changed = changedGenes(t.stuck, n); // one factor's level and one loop order
            QCOMPARE(changed.size(), std::size_t(2));
            QVERIFY(changed[0] >= perm.begin && changed[0] < perm.end);
            QVERIFY(changed[1] >= tiling.begin && changed[1] < tiling.end);
        }
        const auto inserts = t.of(&DesignMoves::factorInsertNeighbours);
        QCOMPARE(inserts.size(), std::size_t(26));
        QVERIFY(!t.otherTiersImprove());
        QVERIFY(t.noneImproves({&DesignMoves::factorBlockNeighbours, &DesignMoves::factorRefillNeighbours,
                                &DesignMoves::factorBlockExchangeNeighbours,
                                &DesignMoves::boundLoopOrderNeighbours}));
        // The improving insert, built by hand: one of M's 2s from the GLB (gene 5) into the PE buffer, its
        // loop innermost there (N, K, M), the formats as they are: the PE buffer's tile P[2x32] Z[2x16].
        // The same move with the loop where the order puts it (M, N, K) is no better.
        QCOMPARE(t.stuck[5], 2);
        QCOMPARE(nonUnitLoops(t.layout, t.stuck, 3), (std::vector<int>{2, 1}));
        Genome byHand = t.stuck;
        byHand[5] = 4;
        const std::vector<int> nkm{2, 1, 0};
        byHand[perm.begin + 3] = static_cast<int>(cantorEncode(nkm));
        QCOMPARE(nonUnitLoops(t.layout, byHand, 3), nkm);
        canonicalizeGenome(t.layout, byHand);
        QVERIFY(t.among(inserts, byHand));
        const auto better = t.evaluator.evaluate(byHand);
        QVERIFY2(better.valid, better.reason.c_str());
        QVERIFY(better.edp < t.edp); // Sparseloop's too (tests/data/oracle/figures.tsv, s9004 and s9005)
        QVERIFY(t.best(inserts) <= better.edp);
        Genome asOrdered = t.stuck;
        asOrdered[5] = 4;
        QVERIFY(t.best({asOrdered}) >= t.edp);
    }

    void temporalRefillsTradeOneFactorForTwoBetweenTemporalLevels()
    {
        // SpMM 32x64x48 on cloud (N = 2^4 x 3; levels 1 DRAM, 2 the GLB's temporal level, 3 over the
        // PEs, 4 the PE buffer, 5 over the MACs), every factor at DRAM but N's 3 at level 2: it trades
        // with each pair of N's four 2s at DRAM - C(4, 2) = 6 temporal refills and no spatial one. With
        // the 3 at level 3 (spatial) instead: the same 6 as spatial refills and no temporal one. Then
        // N's 3 at DRAM and two of N's 2s at level 4: one, the 3 to level 4 and the two 2s to DRAM.
        const auto layout = mm3Cloud();
        const auto [three, nTwos] = nFactors(layout);
        QVERIFY(three >= 0);
        QCOMPARE(nTwos.size(), std::size_t(4));
        const DesignMoves moves(layout, DesignMoves::Formats::Positional);
        auto count = [&](const Genome& g) {
            std::vector<Genome> temporal, spatial;
            moves.temporalRefillNeighbours(g, temporal);
            moves.factorRefillNeighbours(g, spatial);
            return std::pair{temporal.size(), spatial.size()};
        };
        Genome g = test::allFactorsAtDram(layout);
        g[three] = 2;
        QCOMPARE(count(g), (std::pair<std::size_t, std::size_t>{6, 0}));
        std::vector<Genome> out;
        moves.temporalRefillNeighbours(g, out);
        for (const auto& n : out) {
            QCOMPARE(changedGenes(g, n).size(), std::size_t(3));
            QCOMPARE(n[three], 1);
            QCOMPARE(std::count_if(nTwos.begin(), nTwos.end(), [&](int i) { return n[i] == 2; }), 2);
        }
        g[three] = 3;
        QCOMPARE(count(g), (std::pair<std::size_t, std::size_t>{0, 6}));
        checkOneRefillBack(layout, &DesignMoves::temporalRefillNeighbours, 4, 1, 3);
    }

    void aTemporalRefillLeavesALocalOptimumOfTheOtherTiers()
    {
        // mm7 on mobile (M = N = 2^6 x 5^2, K = 2^9 x 3^2; levels 1 DRAM, 2 GLB, 3 over the PEs, 4 the PE
        // buffer, 5 over the MACs): where seed 12 of the default ended in session 41 (EDP 7.06063e10,
        // 1.054x best-known). N is split 20 at DRAM (2, 2, 5), 2 over the PEs and 40 in the PE buffer
        // (2, 2, 2, 5). No move of the tiers before the end game's improves it (a loop relocation does,
        // by 0.6 %). Another run's design re-splits N 16 x 50 (a 5 to the PE buffer, two 2s to DRAM): one
        // temporal refill, 4.5 % better (6.73989e10). Both EDPs are Sparseloop's: the oracle printed 4667
        // and 4559 cycles, 15128856.12 and 14783721.1 pJ for the two designs' exports
        // (tests/data/oracle/figures.tsv, s9008 and s9009).
        Trap t(test::sampleLayout("mm7", "mobile"),
               "3,4,2,4,2,2,2,2,2,3,4,2,2,3,3,3,5,5,5,5,5,5,4,4,1,1,3,4,4,4,1,4,0,0,0,0,2,0,0,4,0,0,0,0,"
               "0,0,2,6,6,3");
        QVERIFY2(t.atRecorded(7.06063e10), qPrintable(QString::number(t.edp)));
        QVERIFY(!t.otherTiersImprove());
        QVERIFY(
            t.noneImproves({&DesignMoves::factorBlockNeighbours, &DesignMoves::factorRefillNeighbours,
                            &DesignMoves::factorBlockExchangeNeighbours, &DesignMoves::factorInsertNeighbours,
                            &DesignMoves::boundLoopOrderNeighbours}));
        const auto nGenes = dimGenes(t.layout, "N");
        QCOMPARE(nGenes.size(), std::size_t(8)); // six 2s, then two 5s
        Genome byHand = t.stuck;
        const int levels[] = {1, 1, 1, 1,
                              3, 4, 4, 4}; // 2s: four at DRAM, one over the PEs, one in the PE buffer
        for (std::size_t k = 0; k < nGenes.size(); ++k)
            byHand[nGenes[k]] = levels[k];
        canonicalizeGenome(t.layout, byHand);
        const auto refills = t.of(&DesignMoves::temporalRefillNeighbours);
        QVERIFY(t.among(refills, byHand));
        const auto better = t.evaluator.evaluate(byHand);
        QVERIFY2(better.valid, better.reason.c_str());
        QVERIFY2(std::abs(better.edp / 6.73989e10 - 1) < 1e-5, qPrintable(QString::number(better.edp)));
        QVERIFY(t.best(refills) <= better.edp);
    }

    void loopRelocationsMoveALoopTwoOrMorePlaces()
    {
        // SpMM 32x64x48 on cloud, every factor at DRAM: DRAM's three non-unit loops (M, K, N in some
        // order) - the first to the end, the last to the front: 2 relocations (the adjacent moves are
        // single moves). With every factor at L3_T (the PE buffer) and P and Z compressed, as in
        // boundLoopOrdersReorderTheUnitLoopsRanksAreBoundTo: L3_T's three non-unit loops give 2, and the
        // three unit loops DRAM's L1_T and the GLB's L2_S bind their ranks to give 2 each - 6; with
        // carried formats L3_T's twice (8). Uncompressed, only L3_T's 2.
        const auto layout = mm3Cloud();
        const DesignMoves moves(layout, DesignMoves::Formats::Positional);
        const auto perm = layout.segment(GeneSegment::Permutation);
        const Genome g = test::allFactorsAtDram(layout);
        std::vector<Genome> out;
        moves.loopRelocationNeighbours(g, out);
        QCOMPARE(out.size(), std::size_t(2));
        const auto before = nonUnitLoops(layout, g, 0);
        QCOMPARE(before.size(), std::size_t(3));
        std::set<std::vector<int>> orders;
        for (const auto& n : out) {
            QCOMPARE(changedGenes(g, n), (std::vector<int>{perm.begin}));
            orders.insert(nonUnitLoops(layout, n, 0));
        }
        const std::set<std::vector<int>> byHand{{before[1], before[2], before[0]},
                                                {before[2], before[0], before[1]}};
        QCOMPARE(orders, byHand);
        Genome bound = mm3PAndZCompressed(layout);
        Genome uncompressed = test::allFactorsAtDram(layout);
        const auto tiling = layout.segment(GeneSegment::Tiling);
        for (int i = tiling.begin; i < tiling.end; ++i)
            bound[i] = uncompressed[i] = 4;
        std::map<int, int> perLevel;
        out.clear();
        moves.loopRelocationNeighbours(bound, out);
        for (const auto& n : out)
            for (int i = perm.begin; i < perm.end; ++i)
                if (n[i] != bound[i])
                    ++perLevel[layout.gene(i).mappingLevel];
        QCOMPARE(perLevel, (std::map<int, int>{{0, 2}, {2, 2}, {3, 2}}));
        std::vector<Genome> carried;
        DesignMoves(layout, DesignMoves::Formats::Both).loopRelocationNeighbours(bound, carried);
        QCOMPARE(carried.size(), std::size_t(8));
        out.clear();
        moves.loopRelocationNeighbours(uncompressed, out);
        QCOMPARE(out.size(), std::size_t(2));
    }

    void aLoopRelocationLeavesALocalOptimumOfBoundOrders()
    {
        // conv8 on cloud: where seed 14 of the default ended in session 41 (EDP 2.07085e13, 1.019x
        // best-known). DRAM has one non-unit loop (K) and binds its unit loops too (I, W and O have
        // metadata there); their order decides the DRAM tiles' metadata (I's 1.7e6 bits against 5.4e5
        // in the best order). Over DRAM's 720 orders, everything else kept, adjacent swaps have 28 local
        // optima and relocations 8, all of them the best orders (2.03378e13; worked out by evaluating
        // the 720). A descent by bound-order swaps from here stops 1.8 % above them, where no single
        // move, format pair or exchange improves either; with relocations too it reaches them, changing
        // DRAM's order alone. Sparseloop agrees on the two ends (the stuck design and DRAM order 720 of
        // the best): 16642 and 16418 cycles, 1244348849 and 1238751665 pJ (tests/data/oracle/figures.tsv,
        // s9010 and s9011).
        Trap t(test::sampleLayout("conv8", "cloud"),
               "398,1,716,584,6,1,3,3,3,4,4,4,4,4,3,3,3,3,4,4,4,3,4,4,4,4,5,3,3,4,4,4,5,5,5,5,5,0,0,0,0,0,0,"
               "4,0,0,0,0,0,0,0,0,6,6,4");
        QVERIFY2(t.atRecorded(2.07085e13), qPrintable(QString::number(t.edp)));
        // Steepest descent over the union of `kinds` from `at`; returns the EDP it stops at.
        auto descend = [&](Genome& at, std::initializer_list<Trap::Kind> kinds) {
            double edp = t.evaluator.evaluate(at).edp;
            for (int step = 0; step < 100; ++step) {
                std::vector<Genome> candidates;
                for (auto kind : kinds)
                    (t.moves.*kind)(at, candidates);
                Genome next;
                const double value = lowestCanonicalEdp(t.layout, t.evaluator, candidates, &next);
                if (value >= edp)
                    break;
                at = next;
                edp = value;
            }
            return edp;
        };
        Genome at = canonicalGenome(t.layout, t.stuck);
        const double bound = descend(at, {&DesignMoves::boundLoopOrderNeighbours});
        QVERIFY2(bound < t.edp && bound > 1.015 * 2.03378e13, qPrintable(QString::number(bound)));
        Trap stop(test::sampleLayout("conv8", "cloud"), genomeToText(at).c_str());
        QVERIFY(!stop.otherTiersImprove());
        const Genome stopped = at;
        const double relocated =
            descend(at, {&DesignMoves::boundLoopOrderNeighbours, &DesignMoves::loopRelocationNeighbours});
        QVERIFY2(std::abs(relocated / 2.03378e13 - 1) < 1e-5, qPrintable(QString::number(relocated)));
        const auto perm = t.layout.segment(GeneSegment::Permutation);
        QCOMPARE(changedGenes(stopped, at), (std::vector<int>{perm.begin})); // DRAM's order alone
    }

    void strategyNeighboursCombineSgValuesAndUncompressedTensors()
    {
        // mm3PAndZCompressed. Counted by hand: 7^3 S/G combinations (GLB, PE buffer, compute) x 2^2 (P
        // and Z each kept or turned all U; Q has nothing to turn) - 1 (the genome).
        const auto layout = mm3Cloud();
        const DesignMoves moves(layout);
        const Genome g = mm3PAndZCompressed(layout);
        const auto p = layout.formatSegment(0);
        const auto q = layout.formatSegment(1);
        const auto z = layout.formatSegment(2);
        const auto sg = layout.segment(GeneSegment::SkipGate);
        QCOMPARE(sg.size(), 3);
        std::vector<Genome> out;
        moves.strategyNeighbours(g, out);
        QCOMPARE(out.size(), std::size_t(343 * 4 - 1));
        const std::set<Genome> distinct(out.begin(), out.end());
        QCOMPARE(distinct.size(), out.size());
        QVERIFY(!distinct.contains(g));
        for (const auto& n : out) {
            QVERIFY(std::equal(n.begin(), n.begin() + p.begin, g.begin())); // the mapping as it is
            QVERIFY(std::equal(n.begin() + q.begin, n.begin() + q.end, g.begin() + q.begin));
            QVERIFY(n[p.end - 1] == g[p.end - 1] || n[p.end - 1] == static_cast<int>(RankFormat::U));
        }
        // The compound the polish cannot make: P and Z uncompressed, Gate P<->Q (3) at the GLB and
        // Skip P<-Q (4) at compute, at once.
        Genome compound = g;
        compound[p.end - 1] = compound[z.end - 2] = compound[z.end - 1] = static_cast<int>(RankFormat::U);
        compound[sg.begin] = 3;
        compound[sg.end - 1] = 4;
        QVERIFY(distinct.contains(compound));
    }

    void uncompressedVariantsTurnEachCompressedTensorUncompressed()
    {
        // mm3PAndZCompressed: P uncompressed, Z uncompressed, both uncompressed - three variants,
        // nothing else changed.
        const auto layout = mm3Cloud();
        const DesignMoves moves(layout);
        const Genome g = mm3PAndZCompressed(layout);
        const auto p = layout.formatSegment(0);
        const auto z = layout.formatSegment(2);
        const int u = static_cast<int>(RankFormat::U);
        Genome pU = g, zU = g, bothU = g;
        pU[p.end - 1] = bothU[p.end - 1] = u;
        zU[z.end - 2] = zU[z.end - 1] = bothU[z.end - 2] = bothU[z.end - 1] = u;
        std::vector<Genome> out;
        moves.uncompressedVariants(g, out);
        QCOMPARE(out, (std::vector<Genome>{pU, zU, bothU}));
        // One compressed tensor: one variant; none: no variant.
        out.clear();
        moves.uncompressedVariants(pU, out);
        QCOMPARE(out, (std::vector<Genome>{bothU}));
        out.clear();
        moves.uncompressedVariants(bothU, out);
        QVERIFY(out.empty());
    }

    void aBoundOrderLeavesALocalOptimumOfTheOtherTiers()
    {
        // conv4 on cloud: where 6 of 20 `sparsemap` runs of session 23 ended (EDP 2.0453e10, 1.024x
        // the best-known design, found by GA). Every loop at DRAM is a unit loop; W and I are stored
        // there with metadata (UOP ranks), and Sparseloop binds their DRAM ranks to DRAM's loops in
        // their order, each with the extents below folded in - the canonical form used to put them in
        // dim order. No single move, format pair or factor exchange improves it; another order of
        // DRAM's unit loops does, and nothing else changes.
        Trap t(test::sampleLayout("conv4", "cloud"), "1,1,305,214,71,3,3,3,3,4,4,4,3,3,3,3,3,5,5,4,4,5,5,4,4,"
                                                     "4,4,5,4,0,0,0,0,0,0,0,4,0,0,0,0,0,0,0,6,3,5");
        QVERIFY2(t.atRecorded(2.04525e10), qPrintable(QString::number(t.edp)));
        const Design design = decodeGenome(t.layout, t.stuck);
        for (auto bound : design.mapping.levels[0].bounds)
            QCOMPARE(bound, std::int64_t{1});
        QVERIFY(!t.otherTiersImprove());
        auto bound = t.of(&DesignMoves::boundLoopOrderNeighbours);
        // DRAM binds all six dims (each has extents below; W and I have metadata there): 5 swaps. The
        // GLB's L2_S binds its own non-unit K and C and the unit loops of P, Q, R, S (extents below):
        // 5 more. The PE buffer's L3_S has nothing below it.
        QCOMPARE(bound.size(), std::size_t{10});
        const auto perm = t.layout.segment(GeneSegment::Permutation);
        double better = std::numeric_limits<double>::infinity();
        for (auto& n : bound) {
            QVERIFY(std::equal(n.begin() + perm.end, n.end(), t.stuck.begin() + perm.end)); // orders only
            if (n[perm.begin] != t.stuck[perm.begin])
                better = std::min(better, t.best({n}));
        }
        QVERIFY2(better < t.edp, qPrintable(QString::number(better)));
    }

    void aRepairLeavesALocalOptimumOfTheOtherTiers()
    {
        // mm1 (124 x 124 x 124 padded) on edge: where 7 of 10 `sparsemap` runs of session 22 ended
        // (EDP 1.758e11; `sparsemap optimum` finds no better mapping for its sparse strategy). No single
        // move, format pair or factor exchange improves it. Moving K's factor 31 from the GLB to the PE
        // buffer overflows the PE buffer with Q's bitmask metadata; with Q uncompressed the tiles fit -
        // P[1x31] + Q[31x31] + Z[1x31] = 1,023 words of the 1,024 - and the design is far better.
        Trap t(test::sampleLayout("mm1", "edge"),
               "4,2,3,1,1,3,3,1,3,3,2,3,3,4,0,0,4,0,0,0,0,0,0,1,0,0,0,0,0,5,3,4");
        QVERIFY2(t.atRecorded(1.75825e11), qPrintable(QString::number(t.edp)));
        QVERIFY(!t.otherTiersImprove());
        const auto& layout = t.layout;
        const auto& stuck = t.stuck;
        auto& evaluator = t.evaluator;
        const double edp = t.edp;
        const auto& moves = t.moves;
        const auto single = t.of(&DesignMoves::neighbours);
        // The move by hand: tiling gene 10 is K's 31, at the GLB (level 2), to the PE buffer (4).
        const auto& k31 = layout.gene(10);
        QVERIFY(k31.segment == GeneSegment::Tiling && k31.factor == 31 && stuck[10] == 2);
        QCOMPARE(layout.workload().dims[static_cast<std::size_t>(k31.dim)].name, std::string("K"));
        Genome moved = stuck;
        moved[10] = 4;
        QVERIFY(std::count(single.begin(), single.end(), moved) == 1);
        const auto overflow = evaluator.evaluate(moved);
        QVERIFY(!overflow.valid);
        QVERIFY2(overflow.reason.find("capacity exceeded at PE buffer") != std::string::npos,
                 overflow.reason.c_str());
        QVERIFY2(overflow.reason.find("data 1023") != std::string::npos, overflow.reason.c_str());
        // Its repairs: P uncompressed, Q uncompressed, both. Q uncompressed is valid and better.
        std::vector<Genome> repairs;
        moves.uncompressedVariants(moved, repairs);
        QCOMPARE(repairs.size(), std::size_t(3));
        Genome qUncompressed = moved;
        const auto q = layout.formatSegment(1);
        std::fill(qUncompressed.begin() + q.begin, qUncompressed.begin() + q.end,
                  static_cast<int>(RankFormat::U));
        QCOMPARE(repairs[1], qUncompressed);
        const auto repaired = evaluator.evaluate(qUncompressed);
        QVERIFY2(repaired.valid, repaired.reason.c_str());
        QVERIFY2(repaired.edp < 0.7 * edp, qPrintable(QString::number(repaired.edp)));
    }

    void followUpsReChooseTheFormatsOfTensorsWhoseRanksChanged()
    {
        // spmm-32x64x48 on cloud, every factor at DRAM: each dim has one non-unit loop there, so P (M, K),
        // Q (K, N) and Z (M, N) have two ranks each. One of M's factors 2 moved to the PE buffer
        // (mapping level 4) gives M a second non-unit loop: P and Z gain the rank (4, M), innermost; Q
        // keeps its ranks. Worked by hand, per changed tensor: its 3 used genes x 4 other values = 12
        // single changes, and the pairs with the innermost gene (the new rank's) - 2 pairs x 4 x 4 = 32
        // (the pair of the two outer genes is left out); 44 for P and 44 for Z. Then the 3 S/G genes x 6
        // other values: 18. 106 in all; with no rank changed (the genome itself) only the 18.
        const auto layout = mm3Cloud();
        const DesignMoves moves(layout);
        const Genome before = test::allFactorsAtDram(layout);
        int m2 = -1;
        for (int i = layout.segment(GeneSegment::Tiling).begin; m2 < 0; ++i)
            if (layout.workload().dims[static_cast<std::size_t>(layout.gene(i).dim)].name == "M" &&
                layout.gene(i).factor == 2)
                m2 = i;
        Genome moved = before;
        moved[m2] = 4;
        QCOMPARE(layout.mappingLevels()[3].kind, LoopKind::Temporal);
        std::vector<Genome> out;
        moves.followUpNeighbours(before, moved, out);
        QCOMPARE(out.size(), std::size_t(106));
        QCOMPARE(std::set<Genome>(out.begin(), out.end()).size(), out.size());
        const auto p = layout.formatSegment(0);
        const auto z = layout.formatSegment(2);
        const auto sg = layout.segment(GeneSegment::SkipGate);
        int pairs = 0;
        for (const auto& n : out) {
            const auto changed = changedGenes(moved, n);
            QVERIFY(changed.size() == 1 || changed.size() == 2);
            for (int gene : changed) {
                const bool inP = gene >= p.end - 3 && gene < p.end;
                const bool inZ = gene >= z.end - 3 && gene < z.end;
                const bool isSg = gene >= sg.begin && gene < sg.end;
                QVERIFY2(inP || inZ || (isSg && changed.size() == 1), qPrintable(QString::number(gene)));
            }
            if (changed.size() == 2) {
                ++pairs;
                QVERIFY(changed[1] == p.end - 1 || changed[1] == z.end - 1);
                QCOMPARE(layout.gene(changed[0]).segment, GeneSegment::Format);
            }
        }
        QCOMPARE(pairs, 64);
        out.clear();
        moves.followUpNeighbours(moved, moved, out);
        QCOMPARE(out.size(), std::size_t(18));

        // With compressionMoves the pair of the two outer genes adds the moves of the tensor's
        // compression when one of them is compressed: RLE on P's outer gene gives 4 (it turns U, the
        // middle one takes each of the 4 compressed formats); Z, all U, gives none.
        Genome rle = moved;
        rle[p.end - 3] = static_cast<int>(RankFormat::RLE);
        out.clear();
        moves.followUpNeighbours(before, rle, out);
        QCOMPARE(out.size(), std::size_t(106));
        std::vector<Genome> wider;
        moves.followUpNeighbours(before, rle, wider, true);
        QCOMPARE(wider.size(), std::size_t(110));
        int compressionMoves = 0;
        for (const auto& n : wider) {
            if (std::find(out.begin(), out.end(), n) != out.end())
                continue;
            ++compressionMoves;
            QCOMPARE(changedGenes(rle, n), (std::vector<int>{p.end - 3, p.end - 2}));
            QCOMPARE(n[p.end - 3], static_cast<int>(RankFormat::U));
            QVERIFY(n[p.end - 2] != static_cast<int>(RankFormat::U));
        }
        QCOMPARE(compressionMoves, 4);
    }

    void aFollowUpLeavesALocalOptimumOfTheOtherTiers()
    {
        // mm3 on cloud: where 8 of 10 `sparsemap` runs of session 29 ended (EDP 6.00079e11, 1.7 % above
        // the best-known 5.9019e11, whose cycles and energy Sparseloop confirms: s8008 of
        // tests/data/oracle/figures.tsv). No single move, format pair or factor exchange improves it, and
        // no repair of an invalid mapping move. M's 73 (tiling gene 7) moved from the GLB (level 2) to the
        // PE buffer (4) overflows the PE buffer with P's and Z's formats as they are; with P's formats
        // carried (its new rank (4, M) takes a format) the move is a near miss, and a change of the
        // formats of the tensors whose ranks it changed beats the stuck design.
        Trap t(mm3CloudPaper(), "4,4,5,1,2,3,3,2,5,5,4,3,3,4,0,0,0,0,2,0,0,4,0,0,0,0,0,4,0,3,6,6");
        QVERIFY2(t.atRecorded(6.00079e11), qPrintable(QString::number(t.edp)));
        QVERIFY(!t.otherTiersImprove());
        Genome moved = t.stuck;
        QCOMPARE(moved[7], 2);
        moved[7] = 4;
        QVERIFY(!t.evaluator.evaluate(moved).valid);
        Genome carried = moved;
        carryFormats(t.layout, t.stuck, carried);
        QVERIFY(!t.evaluator.evaluate(carried).valid);
        std::vector<Genome> repairs;
        t.moves.uncompressedVariants(moved, repairs);
        t.moves.uncompressedVariants(carried, repairs);
        QVERIFY(t.best(repairs) >= t.edp);
        // One follow-up step: from the move as it is, the best is still worse (6.03e11); from the carried
        // move, it is the best-known design's EDP, Sparseloop's 6,361 cycles x 92,782,507.96 pJ (s8008).
        std::vector<Genome> followUps;
        t.moves.followUpNeighbours(t.stuck, moved, followUps);
        QVERIFY(t.best(followUps) > t.edp);
        followUps.clear();
        t.moves.followUpNeighbours(t.stuck, carried, followUps);
        const double sparseloop = 6361 * 92782507.96;
        QVERIFY2(std::abs(t.best(followUps) / sparseloop - 1) < 1e-6,
                 qPrintable(QString::number(t.best(followUps))));
    }

    void aCompressionFollowUpLeavesTheTrapOfMobileMm4()
    {
        // mm4 on mobile: where most `sparsemap` runs of session 44 ended (seed 2's design; EDP 1.03411e16,
        // 1.28 % above the best-known 1.0210745e16). No move of the other tiers improves it. M's 2 at the
        // GLB (tiling gene 5) moved to DRAM is 0.6 % worse; after it, P's compression moved from K (RLE,
        // gene 40) to M (UOP, gene 39) is 0.38 % above best-known. That pair alone, without the move, is
        // invalid. The follow-ups of the move pair only genes of which one formats a new rank, and P
        // gains none: they need the compression moves. Sparseloop gives both designs our figures
        // (tests/data/oracle/figures.tsv, s9019 and s9020: 1840636 cycles, 5618203847 and 5568356508 pJ).
        Trap t(test::sampleLayout("mm4", "mobile"), "1,5,1,4,2,2,2,2,4,4,4,4,4,4,3,3,2,2,2,2,5,2,5,5,5,1,1,"
                                                    "3,4,4,4,4,4,4,4,1,0,0,0,0,2,0,0,0,4,0,0,0,4,0,0,3,6,5");
        QVERIFY2(std::abs(t.edp / (1840636 * 5618203847.0) - 1) < 1e-6, qPrintable(QString::number(t.edp)));
        QVERIFY(!t.otherTiersImprove());
        Genome moved = t.stuck;
        QCOMPARE(moved[5], 2);
        moved[5] = 1;
        const double movedEdp = t.evaluator.evaluate(moved).edp;
        QVERIFY(movedEdp > t.edp && movedEdp < 1.01 * t.edp);
        Genome pairAlone = t.stuck;
        pairAlone[39] = static_cast<int>(RankFormat::UOP);
        pairAlone[40] = static_cast<int>(RankFormat::U);
        QVERIFY(!t.evaluator.evaluate(pairAlone).valid);
        Genome better = moved;
        better[39] = pairAlone[39];
        better[40] = pairAlone[40];
        std::vector<Genome> narrow, wide;
        t.moves.followUpNeighbours(t.stuck, moved, narrow);
        t.moves.followUpNeighbours(t.stuck, moved, wide, true);
        QVERIFY(std::find(narrow.begin(), narrow.end(), better) == narrow.end());
        QVERIFY(std::find(wide.begin(), wide.end(), better) != wide.end());
        QVERIFY(t.best(narrow) >= t.edp);
        const double found = t.best(wide);
        QVERIFY2(std::abs(found / (1840636 * 5568356508.0) - 1) < 1e-6, qPrintable(QString::number(found)));
    }

    void offsetPairsLeaveATrapOfCarriedFormats()
    {
        // mm15 on edge: where 4 of 10 `sparsemap` runs of session 39 ended (EDP 2.16486e20, 1.5 % above
        // the best-known 2.13260e20, found at 1,000,000 evaluations). Session 39 took the four groups of
        // genes where it differs from best-known one subset at a time: the PE buffer's loop order (K
        // outside M) and P's formats pay only together. Carried, the order move keeps P's RLE on K4 above
        // U on M4, which Sparseloop cannot represent, and the search's repair reorders it (U on K4, RLE
        // on M4): no single move improves the trap. Repaired with offset pairs instead (UOP on K4, U on
        // M4), that move beats it and lands within 1 % of best-known.
        Trap t(test::sampleLayout("mm15", "edge"), "2,1,3,1,1,1,1,3,3,3,4,4,4,4,4,1,1,1,1,1,1,1,1,1,1,1,1,"
                                                   "3,4,1,1,1,1,1,1,3,3,3,3,4,4,4,4,0,0,0,0,2,0,0,0,4,0,4,"
                                                   "0,0,0,0,3,6,0");
        QVERIFY2(t.atRecorded(2.16486e20), qPrintable(QString::number(t.edp)));
        // The neighbours as the polish evaluates them: repaired (Reorder), canonical, fan-out fitting.
        auto best = [&](const DesignMoves& moves, Genome* argmin) {
            std::vector<Genome> out;
            moves.neighbours(t.stuck, out);
            return lowestValidEdp(
                t.evaluator, std::move(out),
                [&](Genome& c) {
                    orderFormatGenesForSparseloop(t.layout, c);
                    canonicalizeGenome(t.layout, c);
                    return spatialFanoutFits(t.layout, c);
                },
                argmin);
        };
        QVERIFY(best(t.moves, nullptr) >= t.edp);
        DesignMoves offsets(t.layout, DesignMoves::Formats::Both);
        offsets.setCarriedFormatRepair(FormatRepair::Offsets);
        Genome moved;
        const double bestKnown = 2.1326027968011793e20;
        const double lowest = best(offsets, &moved);
        QVERIFY2(lowest < t.edp && lowest < 1.01 * bestKnown,
                 qPrintable(QString::number(lowest / bestKnown)));
        // That move: the PE buffer's loop order (permutation gene 4) and P's format genes, nothing else.
        const auto p = t.layout.formatSegment(0);
        for (int g : changedGenes(t.stuck, moved))
            QVERIFY2(g == 3 || (g >= p.begin && g < p.end), qPrintable(QString::number(g)));
        QVERIFY(moved[3] != t.stuck[3]);
    }

    void theProductEsNeverEvaluatesACanonicalGenomeTwice()
    {
        const auto layout = mm3Cloud();
        SparseMapEs es;
        const auto r = test::runSeeded(es, layout, 6000, 4);
        QCOMPARE(static_cast<std::int64_t>(r.points.size()), 6000);
        std::set<Genome> canonical;
        std::size_t bred = 0;
        for (const auto& p : r.points) {
            if (p.generation == 0)
                continue; // calibration probes and hypercube samples are drawn as the paper draws them
            ++bred;
            QCOMPARE(canonicalGenome(layout, p.genome.toGenome()),
                     p.genome.toGenome()); // bred genomes are canonical
            QVERIFY(canonical.insert(p.genome.toGenome()).second);
        }
        QVERIFY(bred > 4000);
        QVERIFY(es.report().polishes > 0);
    }

    void bredOffspringWhoseFanoutCannotFitAreNeverEvaluated()
    {
        // conv4 on mobile: a crossover or a step often puts more factors at a spatial level than the
        // array has PEs. With the pre-check no design past generation 0 fails it; without, some do
        // (the model then reports them invalid, each an evaluation spent).
        const GenomeLayout layout = test::sampleLayout("conv4", "mobile");
        for (const bool filtered : {true, false}) {
            SparseMapEsParameters p;
            p.prefilterOffspring = filtered;
            SparseMapEs es(p);
            const auto r = test::runSeeded(es, layout, 4000, 1);
            int bredMisfits = 0, bred = 0;
            for (const auto& point : r.points) {
                if (point.generation == 0)
                    continue;
                ++bred;
                bredMisfits += !spatialFanoutFits(layout, point.genome.toGenome());
            }
            QVERIFY(bred > 1000);
            if (filtered)
                QCOMPARE(bredMisfits, 0);
            else
                QVERIFY2(bredMisfits > 100, std::to_string(bredMisfits).c_str());
        }
    }

    void thePublishedVariantKeepsItsGenomes()
    {
        const auto layout = mm3Cloud();
        const auto paper = makeOptimizer("sparsemap-paper");
        QCOMPARE(QString::fromStdString(paper->name()), QString("sparsemap-paper"));
        const auto r = test::runSeeded(*paper, layout, 3000, 4);
        int nonCanonical = 0;
        for (const auto& p : r.points)
            nonCanonical += p.generation > 0 && canonicalGenome(layout, p.genome.toGenome()) != p.genome;
        QVERIFY(nonCanonical > 100); // Cantor steps and resets leave unit loops anywhere
        const auto parameters = sparseMapPaperParameters();
        QVERIFY(parameters.crossover == EsCrossover::SensitivityAware && !parameters.canonicalize &&
                parameters.polishAfterStagnation == 0 &&
                parameters.mutationGene == EsMutationGene::Annealing);
    }

    void badLoopSettingsThrow()
    {
        EvolutionSettings loop;
        validate(loop, "loop");
        loop.parentCount = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, validate(loop, "loop"));
    }
};

QTEST_APPLESS_MAIN(TestSearchDesignMoves)
#include "test_search_design_moves.moc"
