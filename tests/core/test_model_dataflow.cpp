// Step one of the model (dense traffic) and step three (energy, cycles) on designs small enough to
// count by hand.
#include "model/evaluator.hpp"
#include "model_fixtures.hpp"

#include <QtTest>

using namespace sparsemap;
using namespace sparsemap::model;

namespace {

// SpMM with M = K = N = 4 (dims 0, 1, 2); P is M x K, Q is K x N, Z is M x N (16 words each).
Workload spmm4()
{
    return makeSpmm("spmm4", 4, 4, 4, uniformDensity(1), uniformDensity(1));
}

// A one-dimensional convolution O[k][p] += I[p + r] * W[k][r] with P = 4, R = 3, K = 2 (dims 0, 1, 2):
// I has one sliding-window rank of 4 + 3 - 1 = 6 coordinates.
Workload conv1d()
{
    Workload w;
    w.name = "conv1d";
    w.kind = WorkloadKind::General;
    w.dims = {{"P", 4}, {"R", 3}, {"K", 2}};
    w.tensors = {
        Tensor{"I", {{ProjectionTerm{0, 1}, ProjectionTerm{1, 1}}}, false, uniformDensity(1)},
        Tensor{"W", {{ProjectionTerm{2, 1}}, {ProjectionTerm{1, 1}}}, false, uniformDensity(1)},
        Tensor{"O", {{ProjectionTerm{2, 1}}, {ProjectionTerm{0, 1}}}, true, DensitySpec{}},
    };
    return w;
}

} // namespace

class TestModelDataflow : public QObject {
    Q_OBJECT
private slots:
    // Everything at the buffer: DRAM sends each tensor once and takes Z once.
    void fullReuseReadsEachTensorOnce()
    {
        const auto arch = test::twoLevelArchitecture(1);
        const auto w = spmm4();
        auto m = test::emptyMapping(arch, w);
        auto& buf = test::levelNamed(m, "L2_T");
        buf.bounds = {4, 4, 4};
        buf.order = {0, 2, 1}; // for m, for n, for k (output stationary)
        Evaluator e(w, arch, ModelOptions{} /* worst-case capacity, ranks bound inner to outer */);
        const auto& r = e.evaluate(test::denseDesign(arch, w, m));
        QVERIFY2(r.valid, r.reason.c_str());
        const auto& dram = r.levels[0];
        QCOMPARE(dram.tensors[0].reads.actual, 16.0);   // P read once
        QCOMPARE(dram.tensors[1].reads.actual, 16.0);   // Q read once
        QCOMPARE(dram.tensors[2].updates.actual, 16.0); // Z written once
        QCOMPARE(dram.tensors[2].reads.actual, 0.0);    // and never read back
        // The buffer feeds the single MAC every cycle: 64 operand reads each; Z is updated 64
        // times, read back 64 - 16 times (the first update of each element needs no read).
        const auto& b = r.levels[1];
        QCOMPARE(b.tensors[0].reads.actual, 64.0);
        QCOMPARE(b.tensors[1].reads.actual, 64.0);
        QCOMPARE(b.tensors[2].updates.actual, 64.0);
        QCOMPARE(b.tensors[2].reads.actual, 48.0);
        QCOMPARE(b.tensors[0].fills.actual, 16.0);
        QCOMPARE(r.compute.actual, 64.0);
        QCOMPARE(r.compute.cycles, 64.0); // 64 MACs on 1 MAC unit
        QCOMPARE(r.cycles, 64.0);
        // Energy: DRAM 10 pJ x (16 + 16 + 16); buffer reads 1 pJ x (64 + 64 + 48), writes 2 pJ x
        // (16 + 16 + 16 fills + 64 updates: Sparseloop charges the output tile's fill too, see
        // docs/model-notes-dataflow.md §3.7); MACs 0.5 x 64.
        const double expected = 10 * 48 + 1 * 176 + 2 * (16 + 16 + 16 + 64) + 0.5 * 64;
        QCOMPARE(r.energyPj, expected);
        QCOMPARE(r.edp, expected * 64);
    }

    // Four MACs in parallel over N: a quarter of the cycles; Q is scattered, P multicast.
    void spatialLoopsDivideCycles()
    {
        const auto arch = test::twoLevelArchitecture(4);
        const auto w = spmm4();
        auto m = test::emptyMapping(arch, w);
        auto& t = test::levelNamed(m, "L2_T");
        t.bounds = {4, 4, 1};
        t.order = {0, 1, 2};
        test::levelNamed(m, "L2_S").bounds = {1, 1, 4};
        Evaluator e(w, arch, ModelOptions{} /* worst-case capacity, ranks bound inner to outer */);
        const auto& r = e.evaluate(test::denseDesign(arch, w, m));
        QVERIFY2(r.valid, r.reason.c_str());
        QCOMPARE(r.compute.cycles, 16.0); // 64 MACs / 4 in use
        QCOMPARE(r.compute.instances, 4.0);
        // P[m,k] is the same for the four MACs (N does not index P): one read per step = 16.
        QCOMPARE(r.levels[1].tensors[0].reads.actual, 16.0);
        // Q[k,n] differs per MAC: 4 per step = 64.
        QCOMPARE(r.levels[1].tensors[1].reads.actual, 64.0);
    }

    // N outermost at DRAM, M inside it, K at the buffer: the buffer holds one row of P and one
    // column of Q. P's row changes with every (n, m) step, so P is fetched N = 4 times (64 words);
    // Q's column only changes with n (m does not index Q), so Q is fetched once (16 words).
    void refetchesShowAsMultiples()
    {
        const auto arch = test::twoLevelArchitecture(1);
        const auto w = spmm4();
        auto m = test::emptyMapping(arch, w);
        auto& dramLoops = test::levelNamed(m, "L1_T");
        dramLoops.bounds = {4, 1, 4};
        dramLoops.order = {2, 0, 1}; // for n, for m (k trivial)
        test::levelNamed(m, "L2_T").bounds = {1, 4, 1};
        Evaluator e(w, arch, ModelOptions{} /* worst-case capacity, ranks bound inner to outer */);
        const auto& r = e.evaluate(test::denseDesign(arch, w, m));
        QVERIFY2(r.valid, r.reason.c_str());
        QCOMPARE(r.levels[0].tensors[0].reads.actual, 64.0); // 4 x |P|
        QCOMPARE(r.levels[0].tensors[1].reads.actual, 16.0); // 1 x |Q|
        QCOMPARE(r.levels[0].tensors[2].updates.actual, 16.0);
        QCOMPARE(r.levels[1].tensors[0].tile, 4.0);
        QCOMPARE(r.levels[1].tensors[1].tile, 4.0);
        QCOMPARE(r.levels[1].tensors[2].tile, 1.0);
    }

    // Twelve MACs unroll P (4) and R (3): MAC (p, r) reads I[p + r], and only 6 of the 12 operands
    // differ. Timeloop multicasts a read to every child whose delta is exactly equal, so the buffer
    // reads 6 words per K step, 12 in all (not 24); W[k][r] differs only along R: 3 per step.
    void slidingWindowOperandsAreMulticast()
    {
        const auto arch = test::twoLevelArchitecture(12);
        const auto w = conv1d();
        auto m = test::emptyMapping(arch, w);
        test::levelNamed(m, "L2_T").bounds = {1, 1, 2};
        test::levelNamed(m, "L2_S").bounds = {4, 3, 1};
        Evaluator e(w, arch, ModelOptions{});
        const auto& r = e.evaluate(test::denseDesign(arch, w, m));
        QVERIFY2(r.valid, r.reason.c_str());
        QCOMPARE(r.compute.actual, 24.0);
        QCOMPARE(r.levels[1].tensors[0].reads.actual, 12.0);
        QCOMPARE(r.levels[1].tensors[1].reads.actual, 6.0);
    }

    // The buffer holds I[p + r] for all P (4 words) and DRAM steps R. With nothing else moving, each
    // R step slides the window by one word: 4 + 1 + 1 = 6 fills. With a K loop inside the R loop
    // the tile alternates between staying put and sliding; Timeloop keeps the overlap only while
    // the tile moves by the same step as before, so every R step refetches all 4: 12 fills.
    void slidingWindowReuseNeedsASteadyStep()
    {
        const auto arch = test::twoLevelArchitecture(1);
        const auto w = conv1d();
        for (const bool kInside : {false, true}) {
            auto m = test::emptyMapping(arch, w);
            auto& dram = test::levelNamed(m, "L1_T");
            dram.bounds = {1, 3, kInside ? 2 : 1};
            dram.order = {1, 2, 0}; // for r, for k
            auto& buffer = test::levelNamed(m, "L2_T");
            buffer.bounds = {4, 1, kInside ? 1 : 2};
            buffer.order = {2, 0, 1};
            Evaluator e(w, arch, ModelOptions{});
            const auto& r = e.evaluate(test::denseDesign(arch, w, m));
            QVERIFY2(r.valid, r.reason.c_str());
            QCOMPARE(r.levels[1].tensors[0].tile, 4.0);
            QCOMPARE(r.levels[1].tensors[0].fills.actual, kInside ? 12.0 : 6.0);
        }
    }

    // Timeloop runs only iterations #0 and #1 of each temporal loop and counts #1's delta for the
    // rest. The buffer holds I[p + r] for 2 p's; DRAM runs for p2 { for r3 }: the tile's offsets are
    // 0, 1, 2 then 2, 3, 4. Simulated: p#0 r#0 fills 2; r#1 slides by 1, 1 new, counted twice; p#1
    // r#0 is seen coming from offset 1 (the last simulated tile), a slide by 1 as before: 1 new;
    // r#1: 1 new, twice. 2 + 2 + 1 + 2 = 7 fills (every step taken, the stay at 2 would cost 8).
    void slidingWindowCountsTimeloopsSimulatedSteps()
    {
        const auto arch = test::twoLevelArchitecture(1);
        const auto w = conv1d();
        auto m = test::emptyMapping(arch, w);
        auto& dram = test::levelNamed(m, "L1_T");
        dram.bounds = {2, 3, 1};
        dram.order = {0, 1, 2}; // for p, for r
        auto& buffer = test::levelNamed(m, "L2_T");
        buffer.bounds = {2, 1, 2};
        buffer.order = {2, 0, 1};
        Evaluator e(w, arch, ModelOptions{});
        const auto& r = e.evaluate(test::denseDesign(arch, w, m));
        QVERIFY2(r.valid, r.reason.c_str());
        QCOMPARE(r.levels[1].tensors[0].tile, 2.0);
        QCOMPARE(r.levels[1].tensors[0].fills.actual, 7.0);
    }

    void bandwidthThrottles()
    {
        auto arch = test::twoLevelArchitecture(1);
        arch.levels[0].readBandwidth = 0.25; // DRAM: a word every 4 cycles
        const auto w = spmm4();
        auto m = test::emptyMapping(arch, w);
        auto& buf = test::levelNamed(m, "L2_T");
        buf.bounds = {4, 4, 4};
        Evaluator e(w, arch, ModelOptions{} /* worst-case capacity, ranks bound inner to outer */);
        const auto& r = e.evaluate(test::denseDesign(arch, w, m));
        QVERIFY2(r.valid, r.reason.c_str());
        // DRAM reads 32 words (P and Q once) in 64 compute cycles = 0.5 words/cycle, twice the
        // bandwidth: 128 cycles.
        QCOMPARE(r.levels[0].cycles, 128.0);
        QCOMPARE(r.cycles, 128.0);
    }

    void capacityOverflowIsInvalid()
    {
        const auto arch = test::twoLevelArchitecture(1, 40); // 40 words; the tiles need 48
        const auto w = spmm4();
        auto m = test::emptyMapping(arch, w);
        test::levelNamed(m, "L2_T").bounds = {4, 4, 4};
        Evaluator e(w, arch, ModelOptions{} /* worst-case capacity, ranks bound inner to outer */);
        const auto& r = e.evaluate(test::denseDesign(arch, w, m));
        QVERIFY(!r.valid);
        QVERIFY2(r.reason.find("capacity exceeded at Buffer") != std::string::npos, r.reason.c_str());
        QVERIFY2(r.reason.find("48") != std::string::npos, r.reason.c_str());
    }

    // The pre-evaluation check (dataFitsCapacity) counts each kept tile's data: the dense tile of a
    // tensor without metadata, the maximum occupancy of one with it. All of spmm4 at the buffer needs
    // 16 words each for P, Q and Z; P at density 1/4 holds 4 nonzeros, so in CP its tile holds 4 at most
    // and the tiles' data take 4 + 16 + 16 = 36 words (metadata comes on top).
    void capacityPrecheckCountsEachTilesData()
    {
        const auto w = makeSpmm("spmm4", 4, 4, 4, uniformDensity(0.25), uniformDensity(1));
        struct Case {
            std::int64_t words;
            bool compressed, fits;
        };
        for (const Case c :
             {Case{47, false, false}, Case{48, false, true}, Case{35, true, false}, Case{36, true, true}}) {
            const auto arch = test::twoLevelArchitecture(1, c.words);
            auto m = test::emptyMapping(arch, w);
            test::levelNamed(m, "L2_T").bounds = {4, 4, 4};
            auto d = test::denseDesign(arch, w, m);
            if (c.compressed)
                test::setFormat(d, w, 1, 0, RankFormat::CP);
            Evaluator e(w, arch, ModelOptions{} /* worst-case capacity */);
            QCOMPARE(e.dataFitsCapacity(d), c.fits);
            const auto& r = e.evaluate(d);
            if (!c.fits) { // what the check rules out, the evaluation rejects
                QVERIFY(!r.valid);
                QVERIFY2(r.reason.find("capacity exceeded at Buffer") != std::string::npos, r.reason.c_str());
            } else if (!c.compressed) {
                QVERIFY2(r.valid, r.reason.c_str());
            }
        }
    }

    void fanoutOverflowIsInvalid()
    {
        const auto arch = test::twoLevelArchitecture(2);
        const auto w = spmm4();
        auto m = test::emptyMapping(arch, w);
        test::levelNamed(m, "L2_T").bounds = {4, 4, 1};
        test::levelNamed(m, "L2_S").bounds = {1, 1, 4}; // 4 MACs wanted, 2 exist
        Evaluator e(w, arch, ModelOptions{} /* worst-case capacity, ranks bound inner to outer */);
        const auto& r = e.evaluate(test::denseDesign(arch, w, m));
        QVERIFY(!r.valid);
        QVERIFY2(r.reason.find("spatial fan-out exceeded") != std::string::npos, r.reason.c_str());
    }

    void boundsThatDoNotMultiplyAreInvalid()
    {
        const auto arch = test::twoLevelArchitecture(1);
        const auto w = spmm4();
        auto m = test::emptyMapping(arch, w);
        test::levelNamed(m, "L2_T").bounds = {4, 2, 4};
        Evaluator e(w, arch);
        const auto& r = e.evaluate(test::denseDesign(arch, w, m));
        QVERIFY(!r.valid);
        QVERIFY2(r.reason.find("K multiply to 2") != std::string::npos, r.reason.c_str());
    }
};

QTEST_APPLESS_MAIN(TestModelDataflow)
#include "test_model_dataflow.moc"
