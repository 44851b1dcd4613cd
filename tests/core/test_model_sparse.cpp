// Step two of the model on the Sparseloop paper's own small examples: the dot product of Fig. 3
// under gating and skipping, and the two mappings of Fig. 10 whose leader tiles differ.
#include "genome/genome_codec.hpp"
#include "model/evaluator.hpp"
#include "model/genome_evaluator.hpp"
#include "model/result_text.hpp"
#include "model/sparse/sparse_context.hpp"
#include "model_fixtures.hpp"
#include "sample_inputs.hpp"

#include <QtTest>

#include <cmath>
#include <random>
#include <utility>

using namespace sparsemap;
using namespace sparsemap::model;

namespace {

// A dot product as SpMM with M = N = 1, K = 8: Z += A[k] * B[k]; A and B each hold 4 nonzeros
// (density 0.5), so a pair is effectual with probability 1/4.
Workload dotProduct()
{
    return makeSpmm("dot", 1, 8, 1, uniformDensity(0.5), uniformDensity(0.5));
}

Design dotDesign(const Architecture& arch, const Workload& w)
{
    auto m = test::emptyMapping(arch, w);
    test::levelNamed(m, "L2_T").bounds = {1, 8, 1}; // for k in [0,8) at the buffer, one MAC
    return test::denseDesign(arch, w, m);
}

const int A = 0, B = 1;

} // namespace

class TestModelSparse : public QObject {
    Q_OBJECT
private slots:
    // Fig. 3b, row 1: no SAF, eight steps, eight computes.
    void dotProductBaseline()
    {
        const auto arch = test::twoLevelArchitecture(1);
        const auto w = dotProduct();
        Evaluator e(w, arch, ModelOptions{} /* worst-case capacity, ranks bound inner to outer */);
        const auto& r = e.evaluate(dotDesign(arch, w));
        QVERIFY2(r.valid, r.reason.c_str());
        QCOMPARE(r.compute.actual, 8.0);
        QCOMPARE(r.cycles, 8.0);
        QCOMPARE(r.levels[1].tensors[B].reads.actual, 8.0);
    }

    // Row 2, Gate compute: the MAC idles on the 6 pairs with a zero (8 x 3/4), same 8 steps.
    void dotProductGateCompute()
    {
        const auto arch = test::twoLevelArchitecture(1);
        const auto w = dotProduct();
        auto d = dotDesign(arch, w);
        d.sparse.sites = {
            SgSite{kComputeSite, {SgAction{SgKind::Gate, A, {B}}, SgAction{SgKind::Gate, B, {A}}}}};
        Evaluator e(w, arch, ModelOptions{} /* worst-case capacity, ranks bound inner to outer */);
        const auto& r = e.evaluate(d);
        QVERIFY2(r.valid, r.reason.c_str());
        QCOMPARE(r.compute.actual, 2.0);
        QCOMPARE(r.compute.gated, 6.0);
        QCOMPARE(r.cycles, 8.0);
    }

    // Row 3, Gate B <- A at the buffer: B is not read where A is zero (4 of 8 reads gated); those 4
    // computes are removed, neither gated nor skipped at the MAC (Sparseloop 2022 removes the computes
    // of an operand a storage SAF empties, gating or skipping alike: the exercise
    // ex-01.2.2-SUDU-dot-product-gating prints 4 actual and no gated computes for 16 MACs at A 0.25);
    // where A is nonzero but B zero the compute still happens.
    void dotProductGateBFromA()
    {
        const auto arch = test::twoLevelArchitecture(1);
        const auto w = dotProduct();
        auto d = dotDesign(arch, w);
        d.sparse.sites = {SgSite{1, {SgAction{SgKind::Gate, B, {A}}}}};
        Evaluator e(w, arch, ModelOptions{} /* worst-case capacity, ranks bound inner to outer */);
        const auto& r = e.evaluate(d);
        QVERIFY2(r.valid, r.reason.c_str());
        QCOMPARE(r.levels[1].tensors[B].reads.actual, 4.0);
        QCOMPARE(r.levels[1].tensors[B].reads.gated, 4.0);
        QCOMPARE(r.compute.actual, 4.0);
        QCOMPARE(r.compute.gated, 0.0);
        // The MAC's cycles are its (actual + gated) computes (Timeloop arithmetic.hpp), so with an
        // unlimited buffer bandwidth the removed computes take no time either: 4 cycles. (The exercise
        // takes 16 because its buffer writes 1 word per cycle and the gated Z updates count.)
        QCOMPARE(r.cycles, 4.0);
    }

    // Row 4, Skip B <- A at the buffer with A compressed: only A's 4 nonzeros are visited, B is read
    // 4 times, 4 computes, 4 steps.
    void dotProductSkipBFromA()
    {
        const auto arch = test::twoLevelArchitecture(1);
        const auto w = dotProduct();
        auto d = dotDesign(arch, w);
        test::setFormat(d, w, 1, A, RankFormat::CP);
        d.sparse.sites = {SgSite{1, {SgAction{SgKind::Skip, B, {A}}}}};
        Evaluator e(w, arch, ModelOptions{} /* worst-case capacity, ranks bound inner to outer */);
        const auto& r = e.evaluate(d);
        QVERIFY2(r.valid, r.reason.c_str());
        QCOMPARE(r.levels[1].tensors[A].reads.actual, 4.0);
        QCOMPARE(r.levels[1].tensors[B].reads.actual, 4.0);
        QCOMPARE(r.levels[1].tensors[B].reads.skipped, 4.0);
        QCOMPARE(r.compute.actual, 4.0);
        QCOMPARE(r.cycles, 4.0);
        // CP metadata of A at the buffer: 4 coordinates of ceil(log2 8) = 3 bits, widened to 4 so that
        // words pack the 8-bit metadata storage (Sparseloop's AdjustFormatWordBits), per read of the
        // whole fiber (8 reads of an 8-element tile = one pass): 16 bits.
        QCOMPARE(r.levels[1].tensors[A].metadataReads.actual, 16.0);
    }

    // Skip compute with A compressed (CP at the buffer) and B not: a zero of A is absent and its
    // compute skipped (4 of 8); where A is nonzero both operands are present, and a zero B cannot be
    // skipped, only gated (Sparseloop's compute-gs-analyzer, cases 2/4/5), so with skipping alone the
    // other 4 computes all run, 2 of them on a zero B.
    void skipComputeCannotDropAPresentZero()
    {
        const auto arch = test::twoLevelArchitecture(1);
        const auto w = dotProduct();
        auto d = dotDesign(arch, w);
        test::setFormat(d, w, 1, A, RankFormat::CP);
        d.sparse.sites = {
            SgSite{kComputeSite, {SgAction{SgKind::Skip, A, {B}}, SgAction{SgKind::Skip, B, {A}}}}};
        Evaluator e(w, arch, ModelOptions{} /* worst-case capacity, ranks bound inner to outer */);
        const auto& r = e.evaluate(d);
        QVERIFY2(r.valid, r.reason.c_str());
        QCOMPARE(r.compute.skipped, 4.0);
        QCOMPARE(r.compute.gated, 0.0);
        QCOMPARE(r.compute.actual, 4.0);
    }

    void skippingNeedsLeaderMetadata()
    {
        const auto arch = test::twoLevelArchitecture(1);
        const auto w = dotProduct();
        auto d = dotDesign(arch, w);
        d.sparse.sites = {SgSite{1, {SgAction{SgKind::Skip, B, {A}}}}}; // A uncompressed
        Evaluator e(w, arch);
        const auto& r = e.evaluate(d);
        QVERIFY(!r.valid);
        QVERIFY2(r.reason.find("no leader has metadata") != std::string::npos, r.reason.c_str());
        // Found before any cost: malformed, which a search may rule out without an evaluation.
        QVERIFY(r.malformed);
        // A compressed (CP at the buffer) makes the same skip buildable.
        test::setFormat(d, w, 1, A, RankFormat::CP);
        const auto& compressed = e.evaluate(d);
        QVERIFY2(compressed.valid, compressed.reason.c_str());
        QVERIFY(!compressed.malformed);
    }

    // The search's pre-check of the Skips (Evaluator::skipsHaveLeaderMetadata), by hand on the dot
    // product: a leader counts only with a format at the nearest level at or above the skip's that keeps
    // it (or the nearest below), so A compressed at DRAM alone does not let the buffer skip B.
    void skipPrecheckFindsLeaderMetadataWhereTheSkipReadsIt()
    {
        const auto arch = test::twoLevelArchitecture(1);
        const auto w = dotProduct();
        auto d = dotDesign(arch, w);
        d.sparse.sites = {SgSite{1, {SgAction{SgKind::Skip, B, {A}}}}};
        Evaluator e(w, arch);
        QVERIFY(!e.skipsHaveLeaderMetadata(d)); // A uncompressed everywhere
        test::setFormat(d, w, 0, A, RankFormat::CP);
        QVERIFY(!e.skipsHaveLeaderMetadata(d)); // at DRAM only
        QVERIFY(e.evaluate(d).malformed);
        test::setFormat(d, w, 1, A, RankFormat::CP);
        QVERIFY(e.skipsHaveLeaderMetadata(d));
        QVERIFY(!e.evaluate(d).malformed);
        d.sparse.sites = {SgSite{1, {SgAction{SgKind::Gate, B, {A}}}}};
        test::setFormat(d, w, 1, A, RankFormat::U);
        QVERIFY(e.skipsHaveLeaderMetadata(d)); // a gate needs no metadata
    }

    // The pre-check agrees with the model on genomes: over random genomes of three cells, every design it
    // rejects the model finds malformed, and every design the model rejects for a Skip without leader
    // metadata it rejects.
    void skipPrecheckAgreesWithTheModel()
    {
        int rejected = 0;
        for (const auto& [workload, preset] :
             {std::pair{"mm3", "mobile"}, {"mm9", "edge"}, {"conv8", "cloud"}}) {
            const auto layout = test::sampleLayout(workload, preset);
            GenomeEvaluator e(layout);
            std::mt19937_64 rng(3);
            Design d;
            for (int i = 0; i < 2000; ++i) {
                const auto g = randomGenome(layout, rng);
                e.decode(g, d);
                const bool pass = e.evaluator().skipsHaveLeaderMetadata(d);
                const auto& r = e.evaluator().evaluate(d);
                if (!pass) {
                    ++rejected;
                    QVERIFY2(r.malformed, r.reason.c_str());
                }
                if (r.reason.find("no leader has metadata") != std::string::npos)
                    QVERIFY2(!pass, r.reason.c_str());
            }
        }
        QVERIFY(rejected >= 100);
    }

    // A design the model scores and finds over a buffer's capacity is invalid but not malformed: the
    // dot product's 8 + 8 words of A and B (and Z's 1) in a 4-word buffer.
    void anOverflowIsNotMalformed()
    {
        const auto arch = test::twoLevelArchitecture(1, 4);
        const auto w = dotProduct();
        Evaluator e(w, arch);
        const auto& r = e.evaluate(dotDesign(arch, w));
        QVERIFY(!r.valid);
        QVERIFY2(r.reason.find("capacity exceeded at Buffer") != std::string::npos, r.reason.c_str());
        QVERIFY(!r.malformed);
    }

    // Fig. 10: Skip B <- A at the buffer, B held in a register below it, A 4x4 with 4 nonzeros.
    // Mapping 1 (k innermost): each B element meets one A element; the leader is a scalar, empty
    // with probability 12/16, so floor(64 x 3/4) = 48 of B's 64 buffer reads are skipped.
    // Mapping 2 (m innermost): B[k,n] is reused across the column A[0:3,k]; B is read 16 times and
    // skipped only when the whole column is empty: C(12,4)/C(16,4) = 495/1820, floor(16 x 0.272) = 4.
    // Sparseloop 2022 (storage-optimization-combiner.cpp) finalizes a level whose SAF lies below
    // another SAF on the same tensor with the level's metadata *updates* in place of its metadata
    // reads; B is an input and has none, so the register's B metadata reads vanish once the buffer
    // gates B too (the oracle shows it: "Actual scalar format reads: 0" for such a tensor).
    void innerSafBelowAnotherReadsNoInputMetadata()
    {
        Architecture arch = test::twoLevelArchitecture(1);
        arch.levels.push_back(test::storage("Reg", 1, 16, 0.1, 0.1));
        const auto w = dotProduct();
        auto m = test::emptyMapping(arch, w);
        test::levelNamed(m, "L2_T").bounds = {1, 2, 1};
        test::levelNamed(m, "L3_T").bounds = {1, 4, 1}; // the register holds 4 of A and of B
        auto d = test::denseDesign(arch, w, m);
        for (int level : {1, 2})
            for (int t : {A, B})
                test::setFormat(d, w, level, t, RankFormat::CP);
        Evaluator e(w, arch, ModelOptions{});
        d.sparse.sites = {SgSite{2, {SgAction{SgKind::Skip, B, {A}}}}};
        const auto alone = e.evaluate(d);
        QVERIFY2(alone.valid, alone.reason.c_str());
        QVERIFY(alone.levels[2].tensors[B].metadataReads.total() > 0);
        d.sparse.sites = {SgSite{1, {SgAction{SgKind::Gate, B, {A}}}},
                          SgSite{2, {SgAction{SgKind::Skip, B, {A}}}}};
        const auto both = e.evaluate(d);
        QVERIFY2(both.valid, both.reason.c_str());
        QCOMPARE(both.levels[2].tensors[B].metadataReads.total(), 0.0);
        QVERIFY(both.levels[1].tensors[B].metadataReads.total() > 0); // the outer SAF's level reads
    }

    // The leader tile of a gate is the operation space of the target loop (the innermost loop of the
    // level over the target's dims, here N) with everything inside it, reduced only along loops of
    // that space the target shares with the leader (Sparseloop's ComputeIneffectualReadImpact): the
    // K loop above N at the same level does not shrink it. Q[k,n] is gated by P[m,k] at the buffer,
    // the register holds K2: P's tile is 2 elements of 8 holding 4 nonzeros, empty with probability
    // C(4,2) / C(8,2) = 6/28.
    void leaderTileIsTheTargetLoopsSpace()
    {
        Architecture arch = test::twoLevelArchitecture(1);
        arch.levels.push_back(test::storage("Reg", 1, 16, 0.1, 0.1));
        const auto w = makeSpmm("lt", 1, 8, 2, uniformDensity(0.5), uniformDensity(0.5));
        auto m = test::emptyMapping(arch, w);
        auto& buffer = test::levelNamed(m, "L2_T");
        buffer.bounds = {1, 4, 2};
        buffer.order = {0, 1, 2}; // m, k, n innermost
        test::levelNamed(m, "L3_T").bounds = {1, 2, 1};
        auto d = test::denseDesign(arch, w, m);
        d.sparse.sites = {SgSite{1, {SgAction{SgKind::Gate, B, {A}}}}};
        Evaluator e(w, arch, ModelOptions{});
        const auto& r = e.evaluate(d);
        QVERIFY2(r.valid, r.reason.c_str());
        const auto& q = r.levels[1].tensors[B].reads;
        QVERIFY(q.total() > 0);
        QCOMPARE(q.gated, std::floor(q.total() * 6.0 / 28.0));
    }

    // A spatial target loop narrower than the co-iterated loops above it: Q[k,n] skipped by P[m,k] at
    // the buffer, 64 MACs as n4 (X, innermost) x k16 (Y). The target loop n4 holds 4 Q elements;
    // co-iteration over k16 would leave one P element per Q element, but the skip acts on at least
    // ceil(block 1 / (4 / 16)) = 4 of them at a time, so the leader keeps 16 / (16 / 4) = 4 elements of
    // k (Sparseloop's scaling_needed_to_fit_block_size): P's tile is 4 of its 16 elements holding 4
    // nonzeros, empty w.p. C(12,4) / C(16,4) = 495/1820, and 64 x 495/1820 = 17.4 of Q's 64 reads go.
    void leaderTileKeepsABlockPerCoIteratedStep()
    {
        auto arch = test::twoLevelArchitecture(64);
        arch.compute.meshX = 4; // a 4 x 16 MAC grid
        const auto w = makeSpmm("co", 1, 16, 4, uniformDensity(0.25), uniformDensity(0.5));
        auto m = test::emptyMapping(arch, w);
        auto& fanout = test::levelNamed(m, "L2_S");
        fanout.bounds = {1, 16, 4};
        fanout.order = {0, 1, 2};
        fanout.spatialXLoops = 1;
        auto d = test::denseDesign(arch, w, m);
        test::setFormat(d, w, 1, A, RankFormat::CP);
        d.sparse.sites = {SgSite{1, {SgAction{SgKind::Skip, B, {A}}}}};
        Evaluator e(w, arch, ModelOptions{});
        const auto& r = e.evaluate(d);
        QVERIFY2(r.valid, r.reason.c_str());
        const auto& q = r.levels[1].tensors[B].reads;
        QCOMPARE(q.total(), 64.0);
        QCOMPARE(q.skipped, 17.0);
    }

    // Where the parent keeps metadata, an empty tile is not sent down: only the share of instances
    // whose tile holds a nonzero is used on average, even when the level stores its tile uncompressed
    // (Sparseloop's representation analyzer). A's register tile is one element, nonzero w.p. 4/8.
    void uncompressedTileUnderMetadataUsesNonEmptyInstances()
    {
        Architecture arch = test::twoLevelArchitecture(1);
        arch.levels.push_back(test::storage("Reg", 1, 16, 0.1, 0.1));
        const auto w = dotProduct();
        auto m = test::emptyMapping(arch, w);
        test::levelNamed(m, "L2_T").bounds = {1, 8, 1};
        auto d = test::denseDesign(arch, w, m);
        Evaluator e(w, arch, ModelOptions{});
        QCOMPARE(e.evaluate(d).levels[2].tensors[A].instances, 1.0);
        test::setFormat(d, w, 1, A, RankFormat::CP);
        const auto& r = e.evaluate(d);
        QVERIFY2(r.valid, r.reason.c_str());
        QCOMPARE(r.levels[2].tensors[A].instances, 0.5);
        QCOMPARE(r.levels[2].tensors[B].instances, 1.0); // B's parent has no metadata
    }

    // An SAF gates or skips only the format ranks its level sends down: all of them towards the MACs,
    // none to a child that stores the tile without a format (Sparseloop's ApplyLocalStorageSAFImpact).
    void safRemovesOnlyTheRanksSentDown()
    {
        const auto w = dotProduct();
        { // buffer -> MACs: B's metadata reads are gated like its data, with A's scalar (empty w.p. 1/2)
            const auto arch = test::twoLevelArchitecture(1);
            auto d = dotDesign(arch, w);
            test::setFormat(d, w, 1, B, RankFormat::CP);
            d.sparse.sites = {SgSite{1, {SgAction{SgKind::Gate, B, {A}}}}};
            Evaluator e(w, arch, ModelOptions{});
            const auto& r = e.evaluate(d);
            QVERIFY2(r.valid, r.reason.c_str());
            const auto& md = r.levels[1].tensors[B].metadataReads;
            QVERIFY(md.total() > 0);
            QCOMPARE(md.gated, std::floor(md.total() * 0.5));
        }
        { // buffer -> register holding B uncompressed: no rank is sent, none is gated. A holds one
          // nonzero of 8, so A's leader tile (4 elements) is empty w.p. C(7,4) / C(8,4) = 1/2.
            const auto w1 = makeSpmm("dot1", 1, 8, 1, uniformDensity(0.125), uniformDensity(0.5));
            Architecture arch = test::twoLevelArchitecture(1);
            arch.levels.push_back(test::storage("Reg", 1, 16, 0.1, 0.1));
            auto m = test::emptyMapping(arch, w1);
            test::levelNamed(m, "L2_T").bounds = {1, 2, 1};
            test::levelNamed(m, "L3_T").bounds = {1, 4, 1};
            auto d = test::denseDesign(arch, w1, m);
            test::setFormat(d, w1, 1, B, RankFormat::CP);
            d.sparse.sites = {SgSite{1, {SgAction{SgKind::Gate, B, {A}}}}};
            Evaluator e(w1, arch, ModelOptions{});
            const auto& r = e.evaluate(d);
            QVERIFY2(r.valid, r.reason.c_str());
            QCOMPARE(r.levels[1].tensors[B].reads.gated,
                     std::floor(r.levels[1].tensors[B].reads.total() * 0.5));
            QVERIFY(r.levels[1].tensors[B].metadataReads.total() > 0);
            QCOMPARE(r.levels[1].tensors[B].metadataReads.gated, 0.0);
        }
    }

    // Below an SAF, the eliminated sub-trees' data never arrives, but Sparseloop removes their format
    // traffic only when the SAF level's format has a single rank (its rank range [min(ranks below,
    // ranks - 1), 0] is empty otherwise): with B in two CP ranks at the buffer, the register's B
    // metadata fills stay those of the design without the gate while its data fills halve.
    void upperSafLeavesInnerFormatTrafficOfMultiRankFormats()
    {
        const auto w1 = makeSpmm("dot1", 1, 8, 1, uniformDensity(0.125), uniformDensity(0.5));
        Architecture arch = test::twoLevelArchitecture(1);
        arch.levels.push_back(test::storage("Reg", 1, 16, 0.1, 0.1));
        auto m = test::emptyMapping(arch, w1);
        test::levelNamed(m, "L2_T").bounds = {1, 2, 1};
        test::levelNamed(m, "L3_T").bounds = {1, 4, 1};
        auto d = test::denseDesign(arch, w1, m);
        for (int level : {1, 2})
            test::setFormat(d, w1, level, B, RankFormat::CP);
        QCOMPARE(d.sparse.formats[1][B].ranks.size(), std::size_t(2));
        Evaluator e(w1, arch, ModelOptions{});
        const auto plain = e.evaluate(d);
        QVERIFY2(plain.valid, plain.reason.c_str());
        d.sparse.sites = {SgSite{1, {SgAction{SgKind::Gate, B, {A}}}}};
        const auto gated = e.evaluate(d);
        QVERIFY2(gated.valid, gated.reason.c_str());
        const auto& before = plain.levels[2].tensors[B];
        const auto& after = gated.levels[2].tensors[B];
        QVERIFY(before.metadataFills.total() > 0);
        QCOMPARE(after.metadataFills.total(), before.metadataFills.total());
        QCOMPARE(after.fills.total(), before.fills.total() - std::floor(before.fills.total() * 0.5));
    }

    void figure10LeaderTiles_data()
    {
        QTest::addColumn<std::vector<int>>("order");
        QTest::addColumn<double>("reads");
        QTest::addColumn<double>("skipped");
        QTest::newRow("mapping 1: for m, for n, for k") << std::vector<int>{0, 2, 1} << 64.0 << 48.0;
        QTest::newRow("mapping 2: for k, for n, for m") << std::vector<int>{1, 2, 0} << 16.0 << 4.0;
    }
    void figure10LeaderTiles()
    {
        QFETCH(std::vector<int>, order);
        QFETCH(double, reads);
        QFETCH(double, skipped);
        Architecture arch = test::twoLevelArchitecture(1);
        arch.levels.push_back(test::storage("Reg", 1, 4, 0.1, 0.1));
        const auto w = makeSpmm("fig10", 4, 4, 4, uniformDensity(0.25), uniformDensity(0.5));
        auto m = test::emptyMapping(arch, w);
        auto& buf = test::levelNamed(m, "L2_T");
        buf.bounds = {4, 4, 4};
        buf.order = order;
        m.keep = {{true, true, true}, {true, true, true}, {false, true, false}}; // the register holds B only
        auto d = test::denseDesign(arch, w, m);
        test::setFormat(d, w, 1, A, RankFormat::CP);
        d.sparse.sites = {SgSite{1, {SgAction{SgKind::Skip, B, {A}}}}};
        Evaluator e(w, arch, ModelOptions{} /* worst-case capacity, ranks bound inner to outer */);
        const auto& r = e.evaluate(d);
        QVERIFY2(r.valid, r.reason.c_str());
        const auto& b = r.levels[1].tensors[B].reads;
        QCOMPARE(b.total(), reads);
        QCOMPARE(b.skipped, skipped);
        QCOMPARE(b.actual, reads - skipped);
    }

    // A near-dense tile Sparseloop sees as empty (its wrapped minimum occupancy, held-out oracle case
    // r3047 in test_model_format) is reproduced and flagged. mm5 on edge: the output Z has N = 8960^2
    // = 80,281,600 coordinates and r = ceil((1 - (1 - 0.041^2)^8960) N) = 80,281,578 nonzeros. For a
    // tile of n coordinates Sparseloop takes the minimum density (n - N + r) / n with n - N in
    // unsigned 64 bits: 2^64 - 80,280,816 becomes the double 2^64 - 80,281,600 (spacing 2048), + r
    // rounds to 2^64, and / n x n gives 2^64 - 2048 for n = 784 (the PE buffer's 28 x 28 tile of Z
    // below) - a minimum above the tile's maximum, so no occupancy - but exactly 2^64 for n = 448
    // (16 x 28), which wraps to a minimum of 0 and keeps the tile.
    void sparseloopArtefactIsFlagged()
    {
        const auto layout = test::sampleLayout("mm5", "edge");
        GenomeEvaluator e(layout);
        const int Z = layout.workload().outputTensor(), pe = 2;
        QCOMPARE(layout.architecture().levels[pe].name, std::string("PE buffer"));
        // PE buffer tile of Z 28 x 28 (m4 28, n4 28), Z compressed there (UOP(N4)-U(M4)).
        const Genome empty{2, 1, 1, 5, 1, 1, 1, 3, 3, 3, 3, 4, 4, 1, 4, 1, 1, 1, 1, 1, 1, 3, 4, 1, 1, 1, 1,
                           1, 3, 3, 3, 4, 4, 1, 4, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 4, 0, 3, 6, 5};
        const auto& r = e.evaluate(empty);
        QVERIFY2(r.valid, r.reason.c_str());
        const auto& z = r.levels[pe].tensors[Z];
        QCOMPARE(z.tile, 784.0);
        QVERIFY(z.sparseloopSeesNoOccupancy);
        QCOMPARE(z.expectedDensity, 0.0);
        QCOMPARE(z.updates.total() + z.reads.total() + z.fills.total(), 0.0);
        QVERIFY(!r.levels[pe - 1].tensors[Z].sparseloopSeesNoOccupancy); // GLB's tile of 100,352: kept
        QVERIFY2(r.sparseloopArtefact.find("no occupancy for Z at PE buffer") != std::string::npos,
                 r.sparseloopArtefact.c_str());
        QVERIFY(renderSummary(r).find("note         Sparseloop artefact: ") != std::string::npos);
        // The same design with Z uncompressed: no metadata, nothing dropped, every update counted.
        Genome dense = empty;
        for (int i = 0; i < layout.size(); ++i)
            if (layout.gene(i).segment == GeneSegment::Format && layout.gene(i).tensor == Z)
                dense[i] = 0;
        const auto& d = e.evaluate(dense);
        QVERIFY2(d.valid, d.reason.c_str());
        QVERIFY(!d.levels[pe].tensors[Z].sparseloopSeesNoOccupancy);
        QVERIFY(d.levels[pe].tensors[Z].updates.actual > 0);
        QVERIFY(d.sparseloopArtefact.empty());
        QVERIFY(renderSummary(d).find("artefact") == std::string::npos);
    }

    // reset() leaves a state as a default-constructed one: its numbers, and its rank arrays, whose
    // entries beyond rankCount the model never writes (so a state written that way is all default after).
    void sparseStateResetIsTheDefault()
    {
        TensorSparseState st;
        st.hasFormat = true;
        st.compressed = true;
        st.rankCount = 3;
        for (int r = 0; r < 3; ++r) {
            st.ranks[r] = {RankFormat::CP, 4 + r, 2 + r, 8, 3, 5, true};
            st.expectedUnits[r] = {1.5 + r, 2.5};
            st.maxUnits[r] = {3.0, 4.0 + r};
        }
        st.tile = 64;
        st.maxOccupancy = 9;
        st.density = 0.3;
        st.nonEmptyShare = 0.7;
        st.vectorRatio = 1.2;
        st.sparseloopDensity = 0.25;
        st.reset();
        QCOMPARE(st.hasFormat, false);
        QCOMPARE(st.compressed, false);
        QCOMPARE(st.rankCount, 0);
        QCOMPARE(st.tile, 0.0);
        QCOMPARE(st.maxOccupancy, std::int64_t{0});
        QCOMPARE(st.density, 1.0);
        QCOMPARE(st.nonEmptyShare, 1.0);
        QCOMPARE(st.vectorRatio, 1.0);
        QVERIFY(std::isnan(st.sparseloopDensity));
        for (int r = 0; r < kMaxRanks; ++r) {
            QCOMPARE(st.ranks[r].format, RankFormat::U);
            QCOMPARE(st.ranks[r].fiberShape, std::int64_t{1});
            QCOMPARE(st.ranks[r].subTileVolume, std::int64_t{1});
            QCOMPARE(st.ranks[r].maxFibers, std::int64_t{1});
            QCOMPARE(st.ranks[r].metadataBits, 0);
            QCOMPARE(st.ranks[r].payloadBits, 0);
            QCOMPARE(st.ranks[r].dummy, false);
            QCOMPARE(st.expectedUnits[r].metadata, 0.0);
            QCOMPARE(st.expectedUnits[r].payload, 0.0);
            QCOMPARE(st.maxUnits[r].metadata, 0.0);
            QCOMPARE(st.maxUnits[r].payload, 0.0);
        }
    }

    // The occupancy cache gives back exactly what it was given under the same key, nothing under a
    // key that differs in one element or in length, units only for the entry's own ranks, and it
    // empties itself when it holds more entries than its capacity.
    void occupancyCacheKeepsWhatItWasGiven()
    {
        OccupancyCache cache(2);
        TensorSparseState a;
        a.rankCount = 2;
        a.maxOccupancy = 7;
        a.density = 0.25;
        a.nonEmptyShare = 0.5;
        a.vectorRatio = 1.5;
        a.expectedUnits[0] = {1, 2};
        a.expectedUnits[1] = {3, 4};
        a.expectedUnits[2] = {99, 99}; // beyond the ranks: not kept
        a.maxUnits[0] = {5, 6};
        a.maxUnits[1] = {7, 8};
        const std::vector<std::int64_t> keyA{0, 1, 42, 2, 4, 8};
        cache.insert(keyA, a);
        QVERIFY(!cache.find(std::vector<std::int64_t>{0, 1, 42, 2, 4, 9}));
        QVERIFY(!cache.find(std::vector<std::int64_t>{0, 1, 42, 2, 4}));
        QVERIFY(!cache.find(std::vector<std::int64_t>{0, 1, 42, 2, 4, 8, 0}));
        auto* hit = cache.find(keyA);
        QVERIFY(hit);
        hit->sparseloopDensity = 0.125; // filled in later, as applyRepresentation does
        TensorSparseState b;
        b.rankCount = 2;
        b.expectedUnits.fill({-1, -1});
        b.maxUnits.fill({-1, -1});
        cache.load(*cache.find(keyA), b);
        QCOMPARE(b.maxOccupancy, std::int64_t{7});
        QCOMPARE(b.density, 0.25);
        QCOMPARE(b.nonEmptyShare, 0.5);
        QCOMPARE(b.vectorRatio, 1.5);
        QCOMPARE(b.sparseloopDensity, 0.125);
        QCOMPARE(b.expectedUnits[1].metadata, 3.0);
        QCOMPARE(b.expectedUnits[1].payload, 4.0);
        QCOMPARE(b.maxUnits[0].metadata, 5.0);
        QCOMPARE(b.maxUnits[1].payload, 8.0);
        QCOMPARE(b.expectedUnits[2].metadata, 0.0);
        QCOMPARE(b.maxUnits[2].payload, 0.0);
        // A second entry with one rank; a third fits (the cache empties itself only when it holds
        // more than its capacity); the fourth empties it first.
        TensorSparseState c;
        c.rankCount = 1;
        c.maxOccupancy = 3;
        c.maxUnits[0] = {9, 10};
        cache.insert(std::vector<std::int64_t>{1}, c);
        cache.load(*cache.find(std::vector<std::int64_t>{1}), b);
        QCOMPARE(b.maxOccupancy, std::int64_t{3});
        QCOMPARE(b.maxUnits[0].payload, 10.0);
        QCOMPARE(b.maxUnits[1].payload, 0.0);
        QCOMPARE(cache.size(), std::size_t{2});
        cache.insert(std::vector<std::int64_t>{2}, c);
        QCOMPARE(cache.size(), std::size_t{3});
        cache.insert(std::vector<std::int64_t>{4}, a);
        QCOMPARE(cache.size(), std::size_t{1});
        QVERIFY(!cache.find(keyA));
        cache.load(*cache.find(std::vector<std::int64_t>{4}), b);
        QCOMPARE(b.maxUnits[1].payload, 8.0);
    }
};

QTEST_APPLESS_MAIN(TestModelSparse)
#include "test_model_sparse.moc"
