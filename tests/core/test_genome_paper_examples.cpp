// The SparseMap paper's worked examples: Fig. 9 (prime-factor tiling), Fig. 13 (formats and S/G of
// the toy SpMM) and Section III-B (the 39-gene, O(10^41) design space of SpMM 32x64x48).
#include "design/loop_nest_text.hpp"
#include "genome/genome_codec.hpp"
#include "genome/genome_layout.hpp"
#include "test_support.hpp"

#include <QtTest>

#include <cmath>

using namespace sparsemap;

namespace {

// Mapping levels 1..5 = L1_T, L2_T, L2_S, L3_T, L3_S; dims M=0, K=1, N=2.
// Fig. 9: M's factors (2, 2) -> level 2; K's (2, 2, 2) -> 4, 5, 5; N's (2, 2) -> 3.
// Fig. 13: P formats end in B, B, CP; Q and Z uncompressed; S/G 5, 0, 3.
Genome figure13Genome()
{
    Genome g;
    g.insert(g.end(), {1, 1, 1, 1, 1});       // perm1..perm5: the workload order M K N
    g.insert(g.end(), {2, 2, 4, 5, 5, 3, 3}); // tiling
    g.insert(g.end(), {0, 0, 1, 1, 3});       // P: ..., B, B, CP
    g.insert(g.end(), {0, 0, 0, 0, 0});       // Q
    g.insert(g.end(), {0, 0, 0, 0, 0});       // Z
    g.insert(g.end(), {5, 0, 3});             // S/G at GLB, PE buffer, compute
    return g;
}

} // namespace

class TestGenomePaperExamples : public QObject {
    Q_OBJECT
private slots:
    void toyLayout()
    {
        const GenomeLayout layout(test::toyWorkload(), test::toyArchitecture());
        QCOMPARE(layout.mappingLevels().size(), std::size_t(5));
        QCOMPARE(layout.segment(GeneSegment::Permutation).size(), 5);
        QCOMPARE(layout.segment(GeneSegment::Tiling).size(), 2 + 3 + 2);
        QCOMPARE(layout.size(), 5 + 7 + 15 + 3);
        QCOMPARE(layout.gene(0).upper, 6); // 3! loop orders
    }

    void figure9PrimeFactorTiling()
    {
        const GenomeLayout layout(test::toyWorkload(), test::toyArchitecture());
        const Design d = decodeGenome(layout, figure13Genome());
        const auto& lv = d.mapping.levels;
        const int M = 0, K = 1, N = 2;
        // Expected from the figure: M2 = 4, N3 = 4, K4 = 2, K5 = 4, all others 1.
        const std::int64_t expected[5][3] = {{1, 1, 1}, {4, 1, 1}, {1, 1, 4}, {1, 2, 1}, {1, 4, 1}};
        for (int l = 0; l < 5; ++l)
            for (int dim : {M, K, N})
                QCOMPARE(lv[l].bounds[dim], expected[l][dim]);
        QCOMPARE(lv[2].kind, LoopKind::Spatial);
        QCOMPARE(lv[4].kind, LoopKind::Spatial);
    }

    void figure13Formats()
    {
        const GenomeLayout layout(test::toyWorkload(), test::toyArchitecture());
        const Workload& w = layout.workload();
        const Design d = decodeGenome(layout, figure13Genome());
        const int P = w.tensorIndex("P"), Q = w.tensorIndex("Q");
        // DRAM and GLB tiles of P span M2, K4, K5: the last three P genes B, B, CP.
        for (int storage : {0, 1}) {
            const auto& f = d.sparse.formats[storage][P];
            QCOMPARE(f.ranks.size(), std::size_t(3));
            QCOMPARE(formatText(w, f), std::string("B(M2)-B(K4)-CP(K5)"));
        }
        // The PE buffer tile of P spans K4, K5 only: the last two genes B, CP.
        QCOMPARE(formatText(w, d.sparse.formats[2][P]), std::string("B(K4)-CP(K5)"));
        QCOMPARE(formatText(w, d.sparse.formats[0][Q]), std::string("uncompressed"));
        const std::string nest = renderLoopNest(w, layout.architecture(), d);
        QVERIFY2(nest.find("P: B(M2)-B(K4)-CP(K5)") != std::string::npos, nest.c_str());
    }

    void figure13SkippingGating()
    {
        const GenomeLayout layout(test::toyWorkload(), test::toyArchitecture());
        const Workload& w = layout.workload();
        const Architecture& a = layout.architecture();
        const Design d = decodeGenome(layout, figure13Genome());
        QCOMPARE(d.sparse.sites.size(), std::size_t(3));
        auto line = [&](int i) {
            return sgSiteName(a, d.sparse.sites[i]) + ": " + sgText(w, d.sparse.sites[i]);
        };
        QCOMPARE(line(0), std::string("GLB: Skip Q <- P"));
        QCOMPARE(line(1), std::string("PE buffer: none"));
        QCOMPARE(line(2), std::string("compute: Gate P <-> Q"));
        const std::string nest = renderLoopNest(w, a, d);
        for (const char* expected : {"GLB: Skip Q <- P", "PE buffer: none", "compute: Gate P <-> Q"})
            QVERIFY2(nest.find(expected) != std::string::npos, nest.c_str());
    }

    void figure13LoopNest()
    {
        const GenomeLayout layout(test::toyWorkload(), test::toyArchitecture());
        const Design d = decodeGenome(layout, figure13Genome());
        const std::string nest = renderLoopNest(layout.workload(), layout.architecture(), d);
        // The four non-trivial loops of the paper's description, outer to inner, each on its own line.
        const char* loops[] = {"for m2 in [0,4)", "par-for n3 in [0,4)", "for k4 in [0,2)",
                               "par-for k5 in [0,4)"};
        std::size_t at = 0;
        for (const char* loop : loops) {
            const auto found = nest.find(loop, at);
            QVERIFY2(found != std::string::npos,
                     (std::string(loop) + " missing or out of order in\n" + nest).c_str());
            at = found;
        }
        QVERIFY(nest.find("Z[m,n] += P[m,k] * Q[k,n]") != std::string::npos);
        // Loops with bound 1 are not printed.
        QVERIFY(nest.find("m1") == std::string::npos);
    }

    void designSpaceOf32x64x48()
    {
        const Workload w = makeSpmm("spmm", 32, 64, 48, uniformDensity(0.3), uniformDensity(0.5));
        const GenomeLayout layout(w, test::templateArchitecture(256, 64));
        // 5 permutations + (5 + 6 + 5) prime factors (32 = 2^5, 64 = 2^6, 48 = 2^4 * 3) + 15 + 3.
        QCOMPARE(layout.size(), 39);
        QCOMPARE(layout.segment(GeneSegment::Tiling).size(), 16);
        // The paper: mapping O(10^28), sparse strategy O(10^13), total O(10^41).
        QCOMPARE(static_cast<int>(std::floor(layout.rawMappingSpaceLog10())), 28);
        QCOMPARE(static_cast<int>(std::floor(layout.sparseSpaceLog10())), 13);
        QCOMPARE(static_cast<int>(std::floor(layout.rawSpaceLog10())), 41);
        // Encoded: 6^5 * 5^16 * 5^15 * 7^3 = 10^(3.89 + 11.18 + 10.48 + 2.54) = 10^28.1.
        QCOMPARE(static_cast<int>(std::floor(layout.encodedSpaceLog10())), 28);
    }
};

QTEST_APPLESS_MAIN(TestGenomePaperExamples)
#include "test_genome_paper_examples.moc"
