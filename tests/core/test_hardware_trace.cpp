// The hardware-behaviour trace (paper Fig. 14) on a 4x4x4 SpMM with a hand-written mapping on the toy
// accelerator (4 PEs x 4 MACs): steps, loop indices, tiles, used PEs and MACs, broadcast vs unicast,
// and per-step active / gated / skipped MACs from a hand-written nonzero pattern, all worked out by
// hand below from the example's mapping and patterns (hardware_example.hpp).
#include "analysis/hardware_trace.hpp"
#include "hardware_example.hpp"
#include "io/sparseloop/sparseloop_import.hpp"
#include "io/sparseloop/sparseloop_options.hpp"
#include "model/evaluator.hpp"
#include "test_support.hpp"
#include "util/error.hpp"

#include <QTemporaryDir>
#include <QtTest>

using namespace sparsemap;
using analysis::CoordRange;
using analysis::HardwareTrace;
using analysis::MacCounts;
using analysis::SpatialCast;

namespace {

Design handDesign(const Workload& w, const Architecture& arch)
{
    return test::hardwareExampleDesign(w, arch);
}

void setCompute(Design& d, SgKind kind, int target, std::vector<int> on)
{
    d.sparse.sites.push_back(SgSite{kComputeSite, {SgAction{kind, target, std::move(on)}}});
}

FormatRank rank(RankFormat format, int dim, int mappingLevel)
{
    FormatRank r;
    r.dim = dim;
    r.mappingLevel = mappingLevel;
    r.format = format;
    return r;
}

// P and Q both stored in `ranks` at the PE buffer (storage level 2).
void compressPQ(Design& d, const std::vector<FormatRank>& ranks)
{
    d.sparse.formats[2][0].ranks = ranks;
    d.sparse.formats[2][1].ranks = ranks;
}

MacCounts counts(std::int64_t active, std::int64_t gated, std::int64_t skipped, std::int64_t empty)
{
    MacCounts c;
    c.active = active;
    c.gated = gated;
    c.skipped = skipped;
    c.empty = empty;
    c.idle = 16 - active - gated - skipped - empty;
    return c;
}

} // namespace

class TestHardwareTrace : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        QVERIFY(m_dir.isValid());
        m_arch = test::toyArchitecture();
        m_dense = makeSpmm("dense", 4, 4, 4, uniformDensity(1.0), uniformDensity(1.0));
        m_actual = test::hardwareExampleWorkload(QDir(m_dir.path()));
    }

    void stepsAndLoopIndices()
    {
        const HardwareTrace trace(m_dense, m_arch, handDesign(m_dense, m_arch));
        QCOMPARE(trace.stepCount(), std::int64_t{16});
        QCOMPARE(trace.temporalLoops().size(), std::size_t{4});
        // outer to inner: m1, n2, m4, k4
        const int dims[4] = {0, 2, 0, 1};
        const std::int64_t strides[4] = {2, 2, 1, 2};
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(trace.temporalLoops()[i].dim, dims[i]);
            QCOMPARE(trace.temporalLoops()[i].stride, strides[i]);
        }
        QCOMPARE(trace.loopIndices(0), (std::vector<std::int64_t>{0, 0, 0, 0}));
        QCOMPARE(trace.loopIndices(5), (std::vector<std::int64_t>{0, 1, 0, 1}));
        QCOMPARE(trace.loopIndices(11), (std::vector<std::int64_t>{1, 0, 1, 1}));
        QCOMPARE(trace.loopIndices(15), (std::vector<std::int64_t>{1, 1, 1, 1}));
        // out of range is clamped
        QCOMPARE(trace.loopIndices(99), (std::vector<std::int64_t>{1, 1, 1, 1}));
        QCOMPARE(trace.loopIndices(-3), (std::vector<std::int64_t>{0, 0, 0, 0}));
        // MAC 5 = PE 1 (n3 = 1), k5 = 1 at step 5: M 0, K 3, N 3; MAC 4 at step 11: M 3, K 2, N 1.
        QCOMPARE(trace.macPoint(5, 5), (std::vector<std::int64_t>{0, 3, 3}));
        QCOMPARE(trace.macPoint(11, 4), (std::vector<std::int64_t>{3, 2, 1}));
        QVERIFY(trace.macPoint(0, 2).empty()); // k5 only reaches 0..1
    }

    void tilesPerLevel()
    {
        const HardwareTrace trace(m_dense, m_arch, handDesign(m_dense, m_arch));
        using R = std::vector<CoordRange>;
        // DRAM holds the whole tensors at every step.
        QCOMPARE(*trace.tile(11, 0, 0, 0), (R{{0, 4}, {0, 4}}));
        // GLB: M tile 2 at m1; step 11 has m1 = 1.
        QCOMPARE(*trace.tile(11, 1, 0, 0), (R{{2, 4}, {0, 4}}));
        QCOMPARE(*trace.tile(11, 1, 0, 1), (R{{0, 4}, {0, 4}}));
        QCOMPARE(*trace.tile(11, 1, 0, 2), (R{{2, 4}, {0, 4}}));
        // PE buffer of PE 1 at step 5 (m1 0, n2 1): M 0:2, K 0:4, N = 2*1 + 1 = 3.
        QCOMPARE(*trace.tile(5, 2, 1, 0), (R{{0, 2}, {0, 4}}));
        QCOMPARE(*trace.tile(5, 2, 1, 1), (R{{0, 4}, {3, 4}}));
        QCOMPARE(*trace.tile(5, 2, 1, 2), (R{{0, 2}, {3, 4}}));
        QCOMPARE(trace.tileText(1, *trace.tile(5, 2, 1, 1)), std::string("Q[0:4,3]"));
        QCOMPARE(trace.tileText(0, *trace.tile(11, 1, 0, 0)), std::string("P[2:4,0:4]"));
        // unused PEs hold nothing
        QVERIFY(!trace.tile(5, 2, 2, 0).has_value());
    }

    void usedInstancesAndCasts()
    {
        const HardwareTrace trace(m_dense, m_arch, handDesign(m_dense, m_arch));
        QCOMPARE(trace.usedInstances(2), std::int64_t{2});
        QVERIFY(trace.instanceUsed(2, 0));
        QVERIFY(trace.instanceUsed(2, 1));
        QVERIFY(!trace.instanceUsed(2, 2));
        QVERIFY(!trace.instanceUsed(2, 3));
        QCOMPARE(trace.usedInstances(-1), std::int64_t{4});
        for (int mac : {0, 1, 4, 5})
            QVERIFY(trace.instanceUsed(-1, mac));
        for (int mac : {2, 3, 6, 7, 8, 15})
            QVERIFY(!trace.instanceUsed(-1, mac));
        const auto& f = trace.fanouts();
        QCOMPARE(f.size(), std::size_t{3});
        // DRAM -> GLB: no spatial loop.
        QCOMPARE(f[0].cast[0], SpatialCast::None);
        // GLB -> PEs over N: P (M,K) is broadcast to both PEs, Q and Z get their own column.
        QCOMPARE(f[1].used, std::int64_t{2});
        QCOMPARE(f[1].childrenPerParent, std::int64_t{4});
        QCOMPARE(f[1].cast[0], SpatialCast::Broadcast);
        QCOMPARE(f[1].share[0], std::int64_t{2});
        QCOMPARE(f[1].cast[1], SpatialCast::Unicast);
        QCOMPARE(f[1].cast[2], SpatialCast::Unicast);
        // PE -> MACs over K: P and Q unicast, Z shared (a spatial reduction).
        QCOMPARE(f[2].cast[0], SpatialCast::Unicast);
        QCOMPARE(f[2].cast[1], SpatialCast::Unicast);
        QCOMPARE(f[2].cast[2], SpatialCast::Broadcast);
        // 4 PEs in a 2x2 grid; 16 MACs in a 4x4 grid, each PE owning a 2x2 block.
        QCOMPARE(trace.gridColumns(2), std::int64_t{2});
        QCOMPARE(trace.gridColumns(-1), std::int64_t{4});
        QCOMPARE(trace.gridRows(-1), std::int64_t{4});
        QCOMPARE(trace.gridPosition(2, 1).column, std::int64_t{1});
        QCOMPARE(trace.gridPosition(-1, 5).column, std::int64_t{3}); // PE 1, local MAC 1
        QCOMPARE(trace.gridPosition(-1, 5).row, std::int64_t{0});
        QCOMPARE(trace.gridPosition(-1, 6).row, std::int64_t{1}); // PE 1, local MAC 2
    }

    void denseDesignIsAllActive()
    {
        const HardwareTrace trace(m_dense, m_arch, handDesign(m_dense, m_arch));
        std::int64_t active = 0;
        for (std::int64_t s = 0; s < trace.stepCount(); ++s) {
            const auto c = trace.countStep(s);
            QCOMPARE(c, counts(4, 0, 0, 0));
            active += c.active;
        }
        QCOMPARE(static_cast<double>(active), m_dense.denseMacs()); // 64
    }

    // Step 0 (M 0, K 0..1, N 0..1): MAC 0 P[0,0]=1 Q[0,0]=1; MAC 1 P[0,1]=0 Q[1,0]=0;
    // MAC 4 P[0,0]=1 Q[0,1]=0; MAC 5 P[0,1]=0 Q[1,1]=1.
    void computeGatingAndSkipping()
    {
        {
            auto d = handDesign(m_actual, m_arch); // uncompressed: zeros are present
            setCompute(d, SgKind::Gate, 1, {0});   // Gate Q <- P: checks P only
            const HardwareTrace trace(m_actual, m_arch, d);
            QCOMPARE(trace.countStep(0), counts(2, 2, 0, 0)); // MAC 4 (Q zero, P checked nonzero) runs
            std::vector<analysis::MacState> states;
            trace.macStates(0, states);
            QCOMPARE(states[0], analysis::MacState::Active);
            QCOMPARE(states[1], analysis::MacState::Gated);
            QCOMPARE(states[4], analysis::MacState::Active);
            QCOMPARE(states[5], analysis::MacState::Gated);
            QCOMPARE(states[2], analysis::MacState::Idle);
            // Step 5 (M 0, K 2..3, N 2..3): P[0,2]=1 Q[2,2]=0 | P[0,3]=0 Q[3,2]=1 | P[0,2]=1 Q[2,3]=0
            // | P[0,3]=0 Q[3,3]=0 -> active, gated, active, gated.
            QCOMPARE(trace.countStep(5), counts(2, 2, 0, 0));
        }
        {
            // Skip P <-> Q on uncompressed operands: the zeros are present, both operands arrive and
            // the MAC runs (the model's rule, Sparseloop's: compute skipping drops a compute only when
            // an operand is absent; oracle case *-cskip-zeros, presentZerosUnderComputeSkipping).
            auto d = handDesign(m_actual, m_arch);
            setCompute(d, SgKind::Skip, 0, {1});
            d.sparse.sites.back().actions.push_back(SgAction{SgKind::Skip, 1, {0}}); // Skip P <-> Q
            const HardwareTrace trace(m_actual, m_arch, d);
            QCOMPARE(trace.countStep(0), counts(4, 0, 0, 0));
            // Both compressed at the PE buffer: MAC 1 has neither operand (empty), MACs 4 and 5 miss
            // one (skipped), MAC 0 is active.
            compressPQ(d, {rank(RankFormat::B, 1, 3)});
            const HardwareTrace compressed(m_actual, m_arch, d);
            QCOMPARE(compressed.countStep(0), counts(1, 0, 2, 1));
            // Two U ranks declared without loops (as imported from Sparseloop) carry metadata too
            // (Sparseloop's HasMetaData, TensorFormat::hasMetadata): the zeros are absent, as above.
            compressPQ(d, {rank(RankFormat::U, -1, -1), rank(RankFormat::U, -1, -1)});
            const HardwareTrace declared(m_actual, m_arch, d);
            QCOMPARE(declared.countStep(0), counts(1, 0, 2, 1));
            // P and Q bypass every level, the backing store's `keep` included: the backing store
            // holds them all the same (Mapping::holds, as the model counts them), so its formats
            // decide. Compressed there, the zeros are absent, as above.
            compressPQ(d, {});
            d.mapping.keep.assign(3, {false, false, true});
            d.sparse.formats[0][0].ranks = {rank(RankFormat::B, 1, 3)};
            d.sparse.formats[0][1].ranks = {rank(RankFormat::B, 1, 3)};
            const HardwareTrace backing(m_actual, m_arch, d);
            QCOMPARE(backing.countStep(0), counts(1, 0, 2, 1));
        }
        {
            // No S/G at all: zeros are computed (active).
            const HardwareTrace trace(m_actual, m_arch, handDesign(m_actual, m_arch));
            QCOMPARE(trace.countStep(0), counts(4, 0, 0, 0));
        }
        {
            // Both operands compressed at the PE buffer, no S/G: MAC 1 has neither operand (empty),
            // MACs 4 and 5 have one absent operand and run as bubbles (active), MAC 0 is active.
            auto d = handDesign(m_actual, m_arch);
            compressPQ(d, {rank(RankFormat::B, 1, 3)});
            const HardwareTrace trace(m_actual, m_arch, d);
            QCOMPARE(trace.countStep(0), counts(3, 0, 0, 1));
            // With compute gating the one-absent pairs are gated.
            setCompute(d, SgKind::Gate, 1, {0});
            const HardwareTrace gated(m_actual, m_arch, d);
            QCOMPARE(gated.countStep(0), counts(1, 2, 0, 1));
        }
    }

    void storageSkippingRemovesSteps()
    {
        {
            // Skip Q <- P at the GLB: the leader is P's PE-buffer tile P[2m1:2m1+2, 0:4]; rows 2-3
            // are empty, so every step with m1 = 1 (steps 8..15) skips all 4 used MACs (paper Fig. 14,
            // "the accelerator skips m2 = 1 and m2 = 2").
            auto d = handDesign(m_actual, m_arch);
            d.sparse.sites.push_back(SgSite{1, {SgAction{SgKind::Skip, 1, {0}}}});
            const HardwareTrace trace(m_actual, m_arch, d);
            QCOMPARE(trace.countStep(0), counts(4, 0, 0, 0));
            for (std::int64_t s = 8; s < 16; ++s)
                QCOMPARE(trace.countStep(s), counts(0, 0, 4, 0));
        }
        {
            // Skip Q <- P at the PE buffer (innermost): the leader is P's scalar at each MAC.
            // Step 0: MACs 1 and 5 have P = 0.
            auto d = handDesign(m_actual, m_arch);
            d.sparse.sites.push_back(SgSite{2, {SgAction{SgKind::Skip, 1, {0}}}});
            const HardwareTrace trace(m_actual, m_arch, d);
            QCOMPARE(trace.countStep(0), counts(2, 0, 2, 0));
            // Gate instead: the same MACs idle.
            d.sparse.sites.back().actions[0].kind = SgKind::Gate;
            const HardwareTrace gated(m_actual, m_arch, d);
            QCOMPARE(gated.countStep(0), counts(2, 2, 0, 0));
        }
    }

    // Three operands (MTTKRP O[i,j] += A[i,k,l] B[k,j] C[l,j] on the toy accelerator, a case of
    // tests/data/sparseloop-3input): a MAC is active only where all three operands are nonzero; with
    // all three compressed and compute skipping, one absent operand skips it and all three absent is
    // no compute; with none compressed and compute gating a zero is gated.
    void threeOperandsSampled()
    {
        std::int64_t activeSomewhere = 0;
        for (const char* name : {"toy-abc-cp-cskip", "toy-cgate"}) {
            const SparseloopCase c = importSparseloopCase(
                std::string(SPARSEMAP_SOURCE_DIR "/tests/data/sparseloop-3input/") + name);
            const auto inputs = c.workload.inputTensors();
            QCOMPARE(inputs.size(), std::size_t{3});
            const bool compressed = std::string(name) == "toy-abc-cp-cskip";
            const HardwareTrace trace(c.workload, c.architecture, model::sparseloopDesign(c), 3);
            std::vector<analysis::MacState> states;
            std::int64_t active = 0, others = 0;
            for (std::int64_t step = 0; step < trace.stepCount(); ++step) {
                trace.macStates(step, states);
                for (std::size_t mac = 0; mac < states.size(); ++mac) {
                    const auto point = trace.macPoint(step, static_cast<std::int64_t>(mac));
                    if (point.empty()) {
                        QCOMPARE(states[mac], analysis::MacState::Idle);
                        continue;
                    }
                    int nonzero = 0;
                    for (int t : inputs)
                        nonzero += trace.nonzeroAt(t, point);
                    const auto expected = nonzero == 3   ? analysis::MacState::Active
                                          : !compressed  ? analysis::MacState::Gated
                                          : nonzero == 0 ? analysis::MacState::Empty
                                                         : analysis::MacState::Skipped;
                    QCOMPARE(states[mac], expected);
                    (nonzero == 3 ? active : others) += 1;
                }
            }
            QVERIFY2(others > 0, name);
            activeSomewhere += active;
        }
        QVERIFY(activeSomewhere > 0);
    }

    // Drawing the model's counts (what the hardware view does): summed over every step the picture's
    // active / gated / skipped MACs are the model's on three-operand designs too.
    void threeOperandsModelCounts()
    {
        for (const char* name : {"toy-abc-cp-cskip", "toy-cgate", "toy-sskip-bc-a", "edge-a-cp-cgate"}) {
            const SparseloopCase c = importSparseloopCase(
                std::string(SPARSEMAP_SOURCE_DIR "/tests/data/sparseloop-3input/") + name);
            const Design design = model::sparseloopDesign(c);
            model::Evaluator evaluator(c.workload, c.architecture, model::sparseloopModelOptions(c));
            const auto& r = evaluator.evaluate(design);
            QVERIFY2(r.valid, r.reason.c_str());
            HardwareTrace trace(c.workload, c.architecture, design);
            trace.useModelCounts(std::llround(r.compute.actual), std::llround(r.compute.gated),
                                 std::llround(r.compute.skipped));
            const auto total = trace.countAllSteps();
            QCOMPARE(total.active, std::llround(r.compute.actual));
            QCOMPARE(total.gated, std::llround(r.compute.gated));
            QCOMPARE(total.skipped, std::llround(r.compute.skipped));
            QCOMPARE(total.used(), trace.macSteps());
        }
    }

    // The sampled picture against the model on compute-site S/G (no storage S/G), two operands:
    // Z[m,n] += P[m,k] Q[k,n], 64^3 computes, uniform densities dP, dQ, P and Q uncompressed (present
    // zeros) or bitmask (absent zeros) at the PE buffer, their innermost level. By hand, from the mixes
    // (model-notes-sparse.md §4.6; operand_states.hpp), per compute:
    //  A Skip P <-> Q, both uncompressed: nothing is absent, skipping drops nothing: active 1.
    //  B Skip P <-> Q, both bitmask: active dP dQ, skipped dP (1 - dQ) + dQ (1 - dP), empty the rest.
    //  C Gate Q <- P, both uncompressed: gated where P is a (present) zero: active dP, gated 1 - dP.
    //  D Skip P <- Q, Q bitmask, P uncompressed: skipped where Q is absent: active dQ, skipped 1 - dQ.
    //  E D plus Gate Q <- P: Q absent skipped (1 - dQ); Q nonzero and P a present zero gated
    //    ((1 - dP) dQ); active dP dQ.
    // (Densities of whole 64 x 64 tensors, 4096 values: the model takes a uniform density d as
    // round(d 4096) / 4096, so d is a multiple of 1/4096 here.)
    // The model's counts / 64^3 must be these (to its floor rounding); the picture's fractions over all
    // 65536 steps x 4 MACs are one sample of 4096 values of P and 4096 of Q, whose observed densities
    // have a standard deviation of at most 0.5 / 64 = 0.0078, so a fraction (at most linear in each
    // density, with coefficients <= 1) is off by at most ~0.016 at two sigma each: tolerance 0.03.
    // Before the fix the picture showed A's present zeros as skipped (1 - dP dQ of them).
    void sampledFractionsFollowTheModel()
    {
        struct Case {
            const char* name;
            bool pBitmask, qBitmask;
            std::vector<SgSite> sites;
            double active, gated, skipped; // by hand, for (dP, dQ) below
        };
        const auto skip = [](int target, int on) { return SgAction{SgKind::Skip, target, {on}}; };
        const auto gate = [](int target, int on) { return SgAction{SgKind::Gate, target, {on}}; };
        for (const auto& [dP, dQ] : {std::pair{0.5, 0.25}, std::pair{0.75, 0.375}}) {
            const Case cases[] = {
                {"A", false, false, {SgSite{kComputeSite, {skip(0, 1), skip(1, 0)}}}, 1, 0, 0},
                {"B",
                 true,
                 true,
                 {SgSite{kComputeSite, {skip(0, 1), skip(1, 0)}}},
                 dP * dQ,
                 0,
                 dP * (1 - dQ) + dQ * (1 - dP)},
                {"C", false, false, {SgSite{kComputeSite, {gate(1, 0)}}}, dP, 1 - dP, 0},
                {"D", false, true, {SgSite{kComputeSite, {skip(0, 1)}}}, dQ, 0, 1 - dQ},
                {"E",
                 false,
                 true,
                 {SgSite{kComputeSite, {skip(0, 1), gate(1, 0)}}},
                 dP * dQ,
                 (1 - dP) * dQ,
                 1 - dQ},
            };
            const auto w = makeSpmm("uniform", 64, 64, 64, uniformDensity(dP), uniformDensity(dQ));
            for (const auto& c : cases) {
                const QByteArray what = QByteArray(c.name) + " dP " + QByteArray::number(dP);
                Design d = handDesign(w, m_arch);
                auto& L = d.mapping.levels; // the example's mapping with DRAM loops 32 x 16 x 16
                L[0].bounds = {32, 16, 16};
                // A bitmask rank per loop of the PE-buffer tile (outer to inner): P: M and K of L3_T,
                // K of L3_S; Q: K of L3_T and L3_S.
                const auto B = RankFormat::B;
                if (c.pBitmask)
                    d.sparse.formats[2][0].ranks = {rank(B, 0, 3), rank(B, 1, 3), rank(B, 1, 4)};
                if (c.qBitmask)
                    d.sparse.formats[2][1].ranks = {rank(B, 1, 3), rank(B, 1, 4)};
                d.sparse.sites = c.sites;
                model::Evaluator evaluator(w, m_arch);
                const auto& r = evaluator.evaluate(d);
                QVERIFY2(r.valid, r.reason.c_str());
                const double total = 64.0 * 64 * 64;
                QCOMPARE(r.compute.algorithmic, total);
                // The model: the hand fractions, to its floor rounding.
                QVERIFY2(std::abs(r.compute.actual / total - c.active) < 2 / total, what);
                QVERIFY2(std::abs(r.compute.gated / total - c.gated) < 2 / total, what);
                QVERIFY2(std::abs(r.compute.skipped / total - c.skipped) < 2 / total, what);
                // The picture: the model's fractions within the sampling tolerance.
                const HardwareTrace trace(w, m_arch, d, 11);
                const auto n = trace.countAllSteps();
                QCOMPARE(n.used(), std::int64_t{64 * 64 * 64});
                const auto fraction = [&](std::int64_t x) { return static_cast<double>(x) / total; };
                const double modelEmpty =
                    (total - r.compute.actual - r.compute.gated - r.compute.skipped) / total;
                QVERIFY2(std::abs(fraction(n.active) - r.compute.actual / total) < 0.03, what);
                QVERIFY2(std::abs(fraction(n.gated) - r.compute.gated / total) < 0.03, what);
                QVERIFY2(std::abs(fraction(n.skipped) - r.compute.skipped / total) < 0.03, what);
                QVERIFY2(std::abs(fraction(n.empty) - modelEmpty) < 0.03, what);
                if (c.active == 1)
                    QCOMPARE(n.active, n.used()); // no zero is absent: exact, whatever the sample
            }
        }
    }

    // Sparseloop itself (the multi-operand oracle, tests/data/sparseloop-3input/*-cskip-zeros: compute
    // skipping, A 0.4, B 0.7, C 0.5, none compressed) computes every MAC: 256 / 1024 / 1024 actual, 0
    // gated, 0 skipped. The sampled picture has every used MAC active at every step.
    void presentZerosUnderComputeSkipping()
    {
        for (const char* name : {"tiny-cskip-zeros", "toy-cskip-zeros", "edge-cskip-zeros"}) {
            const SparseloopCase c = importSparseloopCase(
                std::string(SPARSEMAP_SOURCE_DIR "/tests/data/sparseloop-3input/") + name);
            const HardwareTrace trace(c.workload, c.architecture, model::sparseloopDesign(c), 5);
            const auto n = trace.countAllSteps();
            QVERIFY2(n.used() > 0, name);
            QCOMPARE(n.active, n.used());
        }
    }

    void pseudoRandomValuesFollowTheDensity()
    {
        // One sample of a uniform density: deterministic per seed, near the density overall.
        const auto w = makeSpmm("half", 64, 64, 64, uniformDensity(0.5), uniformDensity(0.25));
        auto d = Design{trivialMapping(m_arch, w), {}};
        d.mapping.levels[0].bounds = {64, 64, 64};
        const HardwareTrace a(w, m_arch, d, 7), b(w, m_arch, d, 7);
        int nzP = 0, nzQ = 0;
        for (std::int64_t i = 0; i < 64; ++i)
            for (std::int64_t j = 0; j < 64; ++j) {
                nzP += a.nonzeroAt(0, {i, j, 0});
                nzQ += a.nonzeroAt(1, {0, i, j});
                QCOMPARE(a.nonzeroAt(0, {i, j, 0}), b.nonzeroAt(0, {i, j, 0}));
            }
        QVERIFY(std::abs(nzP - 2048) < 200);
        QVERIFY(std::abs(nzQ - 1024) < 150);
    }

    void manyStepsUseInt64()
    {
        // 2048^3 computes, all temporal in DRAM: 2^33 steps.
        const auto w = makeSpmm("big", 2048, 2048, 2048, uniformDensity(1.0), uniformDensity(1.0));
        auto d = Design{trivialMapping(m_arch, w), {}};
        d.mapping.levels[0].bounds = {2048, 2048, 2048};
        const HardwareTrace trace(w, m_arch, d);
        QCOMPARE(trace.stepCount(), std::int64_t{1} << 33);
        QCOMPARE(trace.loopIndices((std::int64_t{1} << 33) - 1),
                 (std::vector<std::int64_t>{2047, 2047, 2047}));
        QCOMPARE(trace.macPoint(std::int64_t{1} << 32, 0), (std::vector<std::int64_t>{1024, 0, 0}));
    }

    void badDesignsAreReported()
    {
        auto d = handDesign(m_dense, m_arch);
        d.mapping.levels[0].bounds = {1, 1, 1}; // M now multiplies to 2, not 4
        QVERIFY_THROWS_EXCEPTION(InputError, HardwareTrace(m_dense, m_arch, d));
        // M multiplying to 8 of 4: the view takes the workload as evaluated (a genome's: padded), so the
        // bounds must multiply to its sizes exactly, as the model requires.
        auto padded = handDesign(m_dense, m_arch);
        padded.mapping.levels[0].bounds = {4, 1, 1};
        QVERIFY_THROWS_EXCEPTION(InputError, HardwareTrace(m_dense, m_arch, padded));
        auto wide = handDesign(m_dense, m_arch);
        wide.mapping.levels[1].bounds = {1, 1, 1};
        wide.mapping.levels[4].bounds = {1, 2, 2}; // 4 MACs per PE still fits
        QVERIFY(HardwareTrace(m_dense, m_arch, wide).stepCount() == 8);
        auto over = handDesign(m_dense, m_arch);
        over.mapping.levels[3].bounds = {2, 1, 1};
        over.mapping.levels[4].bounds = {1, 4, 1};
        over.mapping.levels[1].bounds = {1, 1, 1};
        over.mapping.levels[2].bounds = {1, 1, 4}; // 4 PEs x 4 MACs: fits exactly
        QCOMPARE(HardwareTrace(m_dense, m_arch, over).usedInstances(-1), std::int64_t{16});
        over.mapping.levels[0].bounds = {1, 1, 1};
        over.mapping.levels[4].bounds = {2, 4, 1}; // 8 MACs per PE: too many
        QVERIFY_THROWS_EXCEPTION(InputError, HardwareTrace(m_dense, m_arch, over));
        auto missing = m_actual;
        missing.tensors[0].density = test::actualDensityFile("/nonexistent/P.mtx");
        QVERIFY_THROWS_EXCEPTION(InputError, HardwareTrace(missing, m_arch, handDesign(missing, m_arch)));
    }

private:
    QTemporaryDir m_dir;
    Architecture m_arch;
    Workload m_dense, m_actual;
};

QTEST_GUILESS_MAIN(TestHardwareTrace)
#include "test_hardware_trace.moc"
