// Genome layout and codec: padding, bounds, round trips on SpMM, SpConv and batched SpMM, and
// errors for genomes out of range.
#include "genome/genome_codec.hpp"
#include "genome/genome_text.hpp"
#include "sparse/tensor_ranks.hpp"
#include "test_support.hpp"
#include "util/error.hpp"
#include "workload/dim_padding.hpp"

#include <QtTest>

using namespace sparsemap;

namespace {

Workload conv4()
{
    ConvShape s;
    s.c = 128;
    s.h = 16;
    s.w = 16;
    s.k = 128;
    s.r = 3;
    s.s = 3;
    return makeSpconv("conv4", s, uniformDensity(0.477), uniformDensity(0.647));
}

Workload stridedBatchedConv()
{
    ConvShape s;
    s.n = 2;
    s.c = 6;
    s.h = 15;
    s.w = 14;
    s.k = 10;
    s.r = 3;
    s.s = 2;
    s.strideH = 2;
    s.strideW = 2;
    s.samePadding = false;
    s.padH = 1;
    s.padW = 0;
    return makeSpconv("strided", s, uniformDensity(0.4), uniformDensity(0.6));
}

} // namespace

class TestGenomeCodec : public QObject {
    Q_OBJECT
private slots:
    void primeFactorsAndPadding()
    {
        QCOMPARE(primeFactors(730), (std::vector<std::int64_t>{2, 5, 73}));
        QCOMPARE(primeFactors(48), (std::vector<std::int64_t>{2, 2, 2, 2, 3}));
        QCOMPARE(primeFactors(1), std::vector<std::int64_t>{});
        // The paper's rule: a large prime becomes the next composite; small primes and composites stay.
        QCOMPARE(paddedSize(13, PaddingMode::LargePrime), std::int64_t(14));
        QCOMPARE(paddedSize(7, PaddingMode::LargePrime), std::int64_t(7));
        QCOMPARE(paddedSize(3, PaddingMode::LargePrime), std::int64_t(3));
        QCOMPARE(paddedSize(730, PaddingMode::LargePrime), std::int64_t(730));
        QCOMPARE(paddedSize(733, PaddingMode::LargePrime), std::int64_t(734));
        // Smooth: 731 = 17*43, 732 = 4*3*61, 733 prime, 734 = 2*367, 735 = 3*5*7^2.
        QCOMPARE(paddedSize(730, PaddingMode::Smooth), std::int64_t(735));
        QCOMPARE(paddedSize(124, PaddingMode::Smooth), std::int64_t(125));
        QCOMPARE(paddedSize(13, PaddingMode::None), std::int64_t(13));
    }

    void paddingChangesTheTilingGenes()
    {
        const Workload w = makeSpmm("prime", 13, 8, 4, uniformDensity(0.5), uniformDensity(0.5));
        const GenomeLayout paper(w, test::toyArchitecture());
        QCOMPARE(paper.paddedSize(0), std::int64_t(14)); // 14 = 2 * 7: two genes for M
        QCOMPARE(paper.factors(0), (std::vector<std::int64_t>{2, 7}));
        const GenomeLayout none(w, test::toyArchitecture(), GenomeOptions{PaddingMode::None});
        QCOMPARE(none.factors(0), (std::vector<std::int64_t>{13}));
    }

    void permutationRangesFollowTheDimCount()
    {
        const auto arch = test::templateArchitecture(1024, 64, 64 << 20, 128 << 10);
        const GenomeLayout batched(
            makeBatchedSpmm("b", 8, 16, 16, 16, uniformDensity(0.5), uniformDensity(0.5)), arch);
        QCOMPARE(batched.gene(0).upper, 24); // 4! (paper Fig. 15)
        const GenomeLayout conv(conv4(), arch);
        QCOMPARE(conv.gene(0).upper, 720); // K C P Q R S: 6!
        const GenomeLayout conv7(stridedBatchedConv(), arch);
        QCOMPARE(conv7.gene(0).upper, 5040); // N K C P Q R S: 7!
    }

    void convolutionShapes()
    {
        const Workload w = stridedBatchedConv();
        // P = (15 + 2*1 - 3) / 2 + 1 = 8; Q = (14 + 0 - 2) / 2 + 1 = 7.
        QCOMPARE(w.dims[w.dimIndex("P")].size, std::int64_t(8));
        QCOMPARE(w.dims[w.dimIndex("Q")].size, std::int64_t(7));
        const int input = w.tensorIndex("I");
        QVERIFY(w.indexes(input, w.dimIndex("R")));
        QVERIFY(w.indexes(input, w.dimIndex("P")));
        QVERIFY(!w.indexes(input, w.dimIndex("K")));
        QCOMPARE(w.tensors[input].ranks[2][0].coefficient, std::int64_t(2));
    }

    void decodeEncodeRoundTrips_data()
    {
        QTest::addColumn<int>("which");
        QTest::newRow("SpMM mm3 on cloud-like") << 0;
        QTest::newRow("SpConv conv4") << 1;
        QTest::newRow("batched SpMM") << 2;
        QTest::newRow("strided batched SpConv") << 3;
        QTest::newRow("toy") << 4;
    }
    void decodeEncodeRoundTrips()
    {
        QFETCH(int, which);
        const Workload workloads[] = {
            makeSpmm("mm3", 730, 730, 730, uniformDensity(0.118), uniformDensity(0.118)), conv4(),
            makeBatchedSpmm("b", 8, 128, 64, 128, uniformDensity(0.25), uniformDensity(0.4)),
            stridedBatchedConv(), test::toyWorkload()};
        const GenomeLayout layout(workloads[which], test::templateArchitecture(1024, 64));
        std::mt19937_64 rng(42 + which);
        for (int trial = 0; trial < 500; ++trial) {
            const Genome g = randomGenome(layout, rng);
            const Design d = decodeGenome(layout, g);
            // Structural facts every decoded design satisfies by construction.
            for (std::size_t dim = 0; dim < layout.workload().dims.size(); ++dim)
                QCOMPARE(d.mapping.product(static_cast<int>(dim)), layout.paddedSize(static_cast<int>(dim)));
            const Genome again = encodeDesign(layout, d);
            QCOMPARE(decodeGenome(layout, again), d);
            // Permutation, format and S/G genes are unique; only tiling genes can differ, and then
            // only by permuting equal prime factors between levels.
            for (int i = 0; i < layout.size(); ++i)
                if (layout.gene(i).segment == GeneSegment::Permutation ||
                    layout.gene(i).segment == GeneSegment::SkipGate)
                    QCOMPARE(again[i], g[i]);
        }
    }

    void encodeIsCanonicalForATiling()
    {
        // M = 12 = 2*2*3 with bounds L1_T = 2, L2_T = 6: the canonical genome sends the first 2 to
        // level 1, the second 2 and the 3 to level 2.
        const Workload w = makeSpmm("m12", 12, 1, 1, uniformDensity(1), uniformDensity(1));
        const GenomeLayout layout(w, test::toyArchitecture());
        Design d;
        d.mapping = trivialMapping(layout.architecture(), w);
        d.mapping.levels[0].bounds[0] = 2;
        d.mapping.levels[1].bounds[0] = 6;
        const Genome uncompressed(layout.size(), 0); // only the format genes are read: all U
        d.sparse.formats = decodeFormats(layout, d.mapping, uncompressed);
        for (int site : layout.sgSites())
            d.sparse.sites.push_back(SgSite{site, {}});
        const Genome g = encodeDesign(layout, d);
        const auto tiling = layout.segment(GeneSegment::Tiling);
        QCOMPARE(tiling.size(), 3);
        QCOMPARE(g[tiling.begin], 1);
        QCOMPARE(g[tiling.begin + 1], 2);
        QCOMPARE(g[tiling.begin + 2], 2);
        // A bound that is not made of M's prime factors cannot be encoded.
        d.mapping.levels[1].bounds[0] = 5;
        QVERIFY_THROWS_EXCEPTION(InputError, encodeDesign(layout, d));
    }

    void moreThanFiveRanksAreUop()
    {
        // P (M x K) with M = 2^3 and K = 2^3 split over five levels gives more than five ranks.
        const Workload w = makeSpmm("deep", 8, 8, 1, uniformDensity(0.5), uniformDensity(0.5));
        const GenomeLayout layout(w, test::templateArchitecture(64, 64));
        Genome g(layout.size(), 0);
        for (int i = 0; i < 5; ++i)
            g[i] = 1;
        const auto tiling = layout.segment(GeneSegment::Tiling);
        const int levels[6] = {1, 2, 3, 1, 4, 5}; // M to L1, L2, L3; K to L1, L4, L5 -> 6 ranks of P
        for (int i = 0; i < 6; ++i)
            g[tiling.begin + i] = levels[i];
        const auto p = layout.formatSegment(0);
        for (int i = p.begin; i < p.end; ++i)
            g[i] = 1; // B
        const Design d = decodeGenome(layout, g);
        const auto& ranks = d.sparse.formats[0][layout.formatTensor(0)].ranks;
        QCOMPARE(ranks.size(), std::size_t(6));
        QCOMPARE(ranks[0].format, RankFormat::UOP); // beyond the innermost five
        for (int i = 1; i < 6; ++i)
            QCOMPARE(ranks[i].format, RankFormat::B);
        QCOMPARE(decodeGenome(layout, encodeDesign(layout, d)), d);
    }

    void badGenomesAreErrors()
    {
        const GenomeLayout layout(test::toyWorkload(), test::toyArchitecture());
        Genome g(layout.size(), 1);
        QVERIFY_THROWS_EXCEPTION(GenomeError, decodeGenome(layout, Genome(layout.size() - 1, 1)));
        g[0] = 7; // perm above 3!
        QVERIFY_THROWS_EXCEPTION(GenomeError, decodeGenome(layout, g));
        g[0] = 1;
        g[layout.segment(GeneSegment::Tiling).begin] = 6; // only 5 mapping levels
        QVERIFY_THROWS_EXCEPTION(GenomeError, decodeGenome(layout, g));
        g[layout.segment(GeneSegment::Tiling).begin] = 1;
        g[layout.size() - 1] = 7; // S/G is 0..6
        try {
            decodeGenome(layout, g);
            QFAIL("an S/G gene of 7 was accepted");
        } catch (const GenomeError& e) {
            QVERIFY2(std::string(e.what()).find("S/G compute") != std::string::npos, e.what());
            QVERIFY2(std::string(e.what()).find("0..6") != std::string::npos, e.what());
        }
    }

    void genomeText()
    {
        QCOMPARE(parseGenomeText("1,3,2"), (Genome{1, 3, 2}));
        QCOMPARE(parseGenomeText(" [1, 3 ,2] "), (Genome{1, 3, 2}));
        QCOMPARE(parseGenomeText("1 3\t2"), (Genome{1, 3, 2}));
        QCOMPARE(genomeToText({4, 0, 12}), std::string("4,0,12"));
        QVERIFY_THROWS_EXCEPTION(GenomeError, parseGenomeText("1,x,2"));
        QVERIFY_THROWS_EXCEPTION(GenomeError, parseGenomeText("[1,2"));
        QVERIFY_THROWS_EXCEPTION(GenomeError, parseGenomeText(""));
        QVERIFY_THROWS_EXCEPTION(GenomeError, parseGenomeText("1.5,2"));
    }

    void workloadsTheGenomeCannotEncode()
    {
        Workload w = test::toyWorkload();
        w.tensors[1].isOutput = true; // two outputs
        QVERIFY_THROWS_EXCEPTION(InputError, GenomeLayout(w, test::toyArchitecture()));
        Workload zero = test::toyWorkload();
        zero.dims[0].size = 0;
        QVERIFY_THROWS_EXCEPTION(InputError, GenomeLayout(zero, test::toyArchitecture()));
    }
};

QTEST_APPLESS_MAIN(TestGenomeCodec)
#include "test_genome_codec.moc"
