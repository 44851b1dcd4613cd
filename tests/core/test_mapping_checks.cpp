// The pre-check in one place (mapping/mapping_checks and mapping/spatial_fanout, issue 15): the
// structure rules, per-level use, the fan-out rule, Timeloop's mesh rule, and the genome path
// agreeing with the decoded design's loops.
// Expected values worked out by hand on the paper's toy accelerator (DRAM, GLB, 4 PEs x 4 MACs: the
// GLB feeds 4 PEs, a PE 4 MACs).
#include "genome/genome_codec.hpp"
#include "mapping/mapping_checks.hpp"
#include "mapping/spatial_fanout.hpp"
#include "mapping/spatial_split.hpp"
#include "search/genome_checks.hpp"
#include "sample_inputs.hpp"
#include "test_support.hpp"

#include <QtTest>

#include <algorithm>
#include <limits>

using namespace sparsemap;

namespace {

// Dims M, K, N.
SpatialLoops loops(int storageLevel, std::int64_t m, std::int64_t k, std::int64_t n)
{
    return {storageLevel, {m, k, n}, std::nullopt};
}

// The toy as 2 x 2 PEs of 8 x 2 MACs (each PE's 4 MACs along X).
Architecture meshedToy()
{
    Architecture a = test::toyArchitecture();
    a.levels[2].meshX = 2;
    a.compute.meshX = 8;
    return a;
}

// The meshed toy, and mm3 and conv4 on every preset.
std::vector<GenomeLayout> meshedToyAndPresetLayouts()
{
    std::vector<GenomeLayout> layouts{GenomeLayout(test::toyWorkload(), meshedToy())};
    for (const char* preset : {"edge", "mobile", "cloud"})
        for (const char* workload : {"mm3", "conv4"})
            layouts.push_back(test::sampleLayout(workload, preset));
    return layouts;
}

bool mentions(const std::string& text, const char* part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

class TestMappingChecks : public QObject {
    Q_OBJECT
private slots:
    void structureByHand()
    {
        // The toy SpMM (M = 4, K = 8, N = 4) with every loop at DRAM: a valid mapping to break.
        const Workload w = test::toyWorkload();
        const Architecture a = test::toyArchitecture();
        const GenomeLayout layout(w, a);
        const Mapping good = decodeGenome(layout, test::allFactorsAtDram(layout)).mapping;
        QCOMPARE(mappingStructureProblem(good, w, a), std::string());
        QCOMPARE(mappingPreCheck(good, w, a), std::string());
        auto broken = [&](auto change) {
            Mapping m = good;
            change(m);
            return mappingStructureProblem(m, w, a);
        };
        const auto level = broken([](Mapping& m) { m.levels[1].storageLevel = 7; });
        QVERIFY2(mentions(level, "refers to storage level 7, the architecture has 3"), level.c_str());
        const auto bounds = broken([](Mapping& m) { m.levels[1].bounds.pop_back(); });
        QVERIFY2(mentions(bounds, "has 2 bounds and 3 loops, the workload has 3 dims"), bounds.c_str());
        const auto order = broken([](Mapping& m) { m.levels[1].order = {0, 0, 2}; });
        QVERIFY2(mentions(order, "not a permutation"), order.c_str());
        const auto zero = broken([](Mapping& m) { m.levels[1].bounds[2] = 0; });
        QVERIFY2(mentions(zero, "below 1"), zero.c_str());
        // M's 4 at DRAM halved: 2, not 4; doubled at another level: 8, not 4.
        const auto half = broken([](Mapping& m) { m.levels[0].bounds[0] = 2; });
        QVERIFY2(mentions(half, "the loop bounds of M multiply to 2, not its size 4"), half.c_str());
        const auto twice = broken([](Mapping& m) { m.levels[1].bounds[0] = 2; });
        QVERIFY2(mentions(twice, "multiply to 8, not its size 4"), twice.c_str());

        // Sound structure, too many MACs per PE: the pre-check says so, the structure check does not.
        Mapping over = good;
        over.levels[0].bounds = {1, 1, 1};
        over.levels.back().bounds = {4, 8, 4}; // L3_S: 128 MACs per PE, the PE has 4
        QCOMPARE(mappingStructureProblem(over, w, a), std::string());
        const auto fanout = mappingPreCheck(over, w, a);
        QVERIFY2(mentions(fanout, "128 children below PE buffer"), fanout.c_str());
    }

    void useAndFanoutByHand()
    {
        const Architecture a = test::toyArchitecture();
        const std::vector<SpatialLoops> fits{loops(1, 2, 1, 2), loops(2, 1, 4, 1)};
        QCOMPARE(spatialFanoutUse(a, fits), (std::vector<std::int64_t>{1, 4, 4}));
        QVERIFY(spatialFanoutFits(a, fits));
        QCOMPARE(spatialFanoutProblem(a, fits), std::string());

        // 2 x 4 = 8 MACs per PE, the PE has 4.
        const std::vector<SpatialLoops> over{loops(1, 2, 1, 2), loops(2, 1, 2, 4)};
        QCOMPARE(spatialFanoutUse(a, over), (std::vector<std::int64_t>{1, 4, 8}));
        QVERIFY(!spatialFanoutFits(a, over));
        const auto why = spatialFanoutProblem(a, over);
        QVERIFY2(mentions(why, "8 children below PE buffer") && mentions(why, "has 4"), why.c_str());

        // A product beyond int64 saturates and does not fit either.
        const std::int64_t huge = std::int64_t{1} << 40;
        const std::vector<SpatialLoops> overflow{loops(1, huge, huge, 1)};
        QCOMPARE(spatialFanoutUse(a, overflow)[1], std::numeric_limits<std::int64_t>::max());
        QVERIFY(!spatialFanoutFits(a, overflow));
    }

    void meshesByHand()
    {
        // The 4 PEs as a 2 x 2 grid and their 16 MACs as 8 x 2 (each PE's 4 along X): M = 4 alone
        // cannot be split over X and Y (a loop goes whole to one side, and each side holds 2),
        // M = 2 and N = 2 can. Both use 4 = the fan-out.
        const Architecture a = meshedToy();
        QVERIFY(architectureProblems(a).empty());
        const std::vector<SpatialLoops> line{loops(1, 4, 1, 1)};
        const std::vector<SpatialLoops> square{loops(1, 2, 1, 2)};
        QCOMPARE(spatialFanoutUse(a, line)[1], std::int64_t{4});
        QVERIFY(!spatialFanoutFits(a, line));
        QVERIFY2(mentions(spatialFanoutProblem(a, line), "meshes"), spatialFanoutProblem(a, line).c_str());
        QVERIFY(spatialFanoutFits(a, square));
        // With the default grid (one row of 4) the line fits.
        QVERIFY(spatialFanoutFits(test::toyArchitecture(), line));
    }

    void splitBeyondTheSmallSearchByHand()
    {
        // More than kSmallSplitDims non-unit loops at one level: spatialSplitExists builds the loops
        // and asks the split search. 1,280 PEs of one MAC; nine loops 3 x 3 x 2^7 = 1,152 under the
        // GLB, within the fan-out. As 5 x 256 PEs: X can hold 1, 2, 3 or 4, so Y would need 1,152 / 4
        // = 288 > 256: no split. As 10 x 128: X = 3 x 3 = 9, Y = 128: fits.
        static_assert(kSmallSplitDims < 9);
        const std::vector<std::int64_t> bounds{3, 3, 2, 2, 2, 2, 2, 2, 2};
        const std::vector<int> storage{1};
        for (const auto& [meshX, fits] : {std::pair{5, false}, std::pair{10, true}}) {
            Architecture a = test::templateArchitecture(1280, 1, 1024, 64);
            a.levels[2].meshX = meshX;
            a.compute.meshX = meshX;
            const auto problems = architectureProblems(a);
            QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().c_str());
            QCOMPARE(spatialSplitExists(a, storage, bounds, 9), fits);
            const std::vector<SpatialLoops> nine{{1, bounds, std::nullopt}};
            QCOMPARE(spatialFanoutUse(a, nine)[1], std::int64_t{1152});
            QCOMPARE(spatialFanoutFits(a, nine), fits);
        }
    }

    void splitOfAMappingByHand()
    {
        // The toy as 2 x 2 PEs of 8 x 2 MACs (meshesByHand), M = 2 and N = 2 spread over the PEs. The
        // X products, largest first: 4 (M and N) does not fit the PEs' 2 columns; 2 fits, taken by the
        // first subset that gives it, M alone: M along X (innermost), N along Y.
        const Architecture a = meshedToy();
        const GenomeLayout layout(test::toyWorkload(), a);
        Mapping m = decodeGenome(layout, test::allFactorsAtDram(layout)).mapping;
        const int mDim = layout.workload().dimIndex("M"), nDim = layout.workload().dimIndex("N");
        MappingLevel* pes = nullptr;
        for (auto& level : m.levels)
            if (level.kind == LoopKind::Spatial && level.storageLevel == 1)
                pes = &level;
        QVERIFY(pes && mDim >= 0 && nDim >= 0);
        pes->bounds[static_cast<std::size_t>(mDim)] = 2;
        pes->bounds[static_cast<std::size_t>(nDim)] = 2;
        QVERIFY(spatialSplitFits(a, m));
        const auto split = withSpatialSplits(a, m);
        QVERIFY(split);
        const MappingLevel* laid = nullptr;
        for (const auto& level : split->levels)
            if (level.kind == LoopKind::Spatial && level.storageLevel == 1)
                laid = &level;
        QVERIFY(laid);
        QCOMPARE(laid->spatialXLoops, 1);
        QCOMPARE(laid->order.back(), mDim);
        QVERIFY(spatialSplitFits(a, *split)); // the split, as given, fits
        // M = 4 alone goes whole to X or to Y, and each side of the PE grid holds 2: no split.
        pes->bounds[static_cast<std::size_t>(nDim)] = 1;
        pes->bounds[static_cast<std::size_t>(mDim)] = 4;
        QVERIFY(!spatialSplitFits(a, m));
        QVERIFY(!withSpatialSplits(a, m));
    }

    void splitMasksAgreeWithTheGeneralSearch()
    {
        // The model's split (on the stack) places the dims the general search (splitSpatialLoops on
        // spatialLoopsOf) places, and answers alike when none fits; a mapping with its split fits.
        const auto layouts = meshedToyAndPresetLayouts();
        std::mt19937_64 rng(17);
        for (const auto& layout : layouts) {
            const Architecture& a = layout.architecture();
            int fit = 0, unfit = 0, twoOrMore = 0;
            for (int n = 0; n < 1000; ++n) {
                Genome g = randomGenome(layout, rng);
                for (int i = layout.segment(GeneSegment::Tiling).begin;
                     i < layout.segment(GeneSegment::Tiling).end; ++i)
                    if (layout.mappingLevels()[static_cast<std::size_t>(g[i] - 1)].kind ==
                            LoopKind::Spatial &&
                        rng() % 3 == 0)
                        g[i] = 1; // fewer spatial loops: more designs within the fan-out
                const Mapping m = decodeGenome(layout, g).mapping;
                const auto reference = splitSpatialLoops(a, spatialLoopsOf(m));
                const auto split = withSpatialSplits(a, m);
                QCOMPARE(split.has_value(), reference.has_value());
                QCOMPARE(spatialSplitFits(a, m), reference.has_value());
                ++(reference ? fit : unfit);
                if (!reference)
                    continue;
                std::size_t k = 0;
                for (const auto& level : split->levels) {
                    if (level.kind != LoopKind::Spatial)
                        continue;
                    std::uint32_t x = 0;
                    for (std::size_t i = level.order.size() - static_cast<std::size_t>(level.spatialXLoops);
                         i < level.order.size(); ++i)
                        x |= 1u << level.order[i];
                    QCOMPARE(x, (*reference)[k++]);
                    twoOrMore += std::count_if(level.bounds.begin(), level.bounds.end(),
                                               [](std::int64_t b) { return b > 1; }) >= 2;
                }
                QCOMPARE(k, reference->size());
                QVERIFY(spatialSplitFits(a, *split));
            }
            QVERIFY(fit > 0 && unfit > 0 && twoOrMore > 0);
        }
    }

    void genomeLoopsAreTheDecodedDesignsLoops()
    {
        // The pre-filter reads the tiling genes without decoding; it must see the loops the decoded
        // design has, and agree with the check on them, for any genome.
        const GenomeLayout layout(test::toyWorkload(), test::toyArchitecture());
        std::mt19937_64 rng(5);
        int fit = 0, unfit = 0;
        for (int n = 0; n < 500; ++n) {
            const Genome g = randomGenome(layout, rng);
            const auto fromGenes = search::spatialLoopsOfGenome(layout, g);
            const auto fromDesign = spatialLoopsOf(decodeGenome(layout, g).mapping);
            QCOMPARE(fromGenes.size(), fromDesign.size());
            for (std::size_t i = 0; i < fromGenes.size(); ++i) {
                QCOMPARE(fromGenes[i].storageLevel, fromDesign[i].storageLevel);
                QCOMPARE(fromGenes[i].bounds, fromDesign[i].bounds);
            }
            const bool fits = search::spatialFanoutFits(layout, g);
            QCOMPARE(fits, spatialFanoutFits(layout.architecture(), fromDesign));
            ++(fits ? fit : unfit);
        }
        QVERIFY(fit > 0 && unfit > 0); // both answers were exercised
    }

    void genomeCheckAgreesOnPresetsAndMeshes()
    {
        // The genome path answers most genomes without the split search (fan-out, then every loop
        // along X); it must give the full check's answer on the presets, and on grids where "every
        // loop along X" does not fit and only the split search can tell (the toy as 2 x 2 PEs of
        // 8 x 2 MACs, above: M = 4 alone fits the fan-out but no split).
        const auto layouts = meshedToyAndPresetLayouts();
        std::mt19937_64 rng(11);
        for (const auto& layout : layouts) {
            int fit = 0, unfit = 0;
            for (int n = 0; n < 2000; ++n) {
                Genome g = randomGenome(layout, rng);
                if (n % 2 == 1) // most random tilings overflow the fan-out: also try a few spatial loops
                    for (int i = layout.segment(GeneSegment::Tiling).begin;
                         i < layout.segment(GeneSegment::Tiling).end; ++i)
                        if (layout.mappingLevels()[static_cast<std::size_t>(g[i] - 1)].kind ==
                                LoopKind::Spatial &&
                            rng() % 3 != 0)
                            g[i] = 1;
                const bool fits = search::spatialFanoutFits(layout, g);
                QCOMPARE(fits,
                         spatialFanoutFits(layout.architecture(), search::spatialLoopsOfGenome(layout, g)));
                ++(fits ? fit : unfit);
            }
            QVERIFY(fit > 0 && unfit > 0);
        }
    }
};

QTEST_APPLESS_MAIN(TestMappingChecks)
#include "test_mapping_checks.moc"
