// The genome for k != 2 inputs (issue 17, item 1): a format segment per tensor (inputs in workload
// order, then the output) and S/G genes of 1 + 3k(k-1) values (genome/sg_gene.hpp). Every expected
// value below is worked out by hand from that rule, not printed by the code.
#include "design/loop_nest_text.hpp"
#include "genome/genome_codec.hpp"
#include "genome/sg_gene.hpp"
#include "io/architecture_io.hpp"
#include "io/design_io.hpp"
#include "io/workload_io.hpp"
#include "search/method_registry.hpp"
#include "search/optimizer.hpp"
#include "sample_inputs.hpp"
#include "test_support.hpp"

#include <QtTest>

#include <cmath>

using namespace sparsemap;

namespace {

// MTTKRP O[i,j] += A[i,k,l] * B[k,j] * C[l,j], small: I = 4 (2*2), J = K = L = 2.
Workload smallMttkrp()
{
    return parseWorkloadYaml(R"(version: 1
workload:
  name: small-mttkrp
  type: general
  dims: {I: 4, J: 2, K: 2, L: 2}
  tensors:
    - {name: A, ranks: [I, K, L], density: 0.5}
    - {name: B, ranks: [K, J], density: 0.5}
    - {name: C, ranks: [L, J], density: 0.5}
    - {name: O, ranks: [I, J], output: true}
)");
}

constexpr int kA = 0, kB = 1, kC = 2, kO = 3; // tensor indices in smallMttkrp

SgAction act(SgKind kind, int target, int leader)
{
    return SgAction{kind, target, {leader}};
}

// On the toy architecture (DRAM, GLB, PE buffer; mapping levels 1 L1_T, 2 L2_T, 3 L2_S, 4 L3_T,
// 5 L3_S): perm x5 (4 dims, codes 1..24) | I#1 I#2 J#1 K#1 L#1 | A B C O formats x5 | S/G GLB, PE
// buffer, compute. I#1 at DRAM, K at DRAM; I#2, J, L at the PE buffer (L3_T); every order I, J, K, L.
// A's ranks at DRAM: I1, K1 (L1_T), I4, L4 (L3_T) -> A[2..5]; B: K1, J4 -> B[4..5]; C: J4, L4 ->
// C[4..5]; O: I1, I4, J4 -> O[3..5]. Unused format genes are U, as in the canonical genome.
Genome handBuiltGenome()
{
    // clang-format off
    return {1, 1, 1, 1, 1,         // perm
            1, 4, 4, 1, 4,         // I#1 I#2 J#1 K#1 L#1
            0, 1, 2, 3, 1,         // A: -, I1 B, K1 RLE, I4 CP, L4 B
            0, 0, 0, 3, 1,         // B: K1 CP, J4 B
            0, 0, 0, 1, 2,         // C: J4 B, L4 RLE
            0, 0, 4, 0, 1,         // O: I1 UOP, I4 U, J4 B
            7, 13, 17};            // Gate A<->B, Skip B<-C, Skip A<->C
    // clang-format on
}

} // namespace

class TestGenomeInputs : public QObject {
    Q_OBJECT

private slots:
    void sgValueCountIsOnePlusThreeKKMinusOne()
    {
        QCOMPARE(sgGeneCount(1), 1);
        QCOMPARE(sgGeneCount(2), 7);
        QCOMPARE(sgGeneCount(3), 19);
        QCOMPARE(sgGeneCount(4), 37);
    }

    // k = 2 is the paper's table, unchanged: 0 none, 1 Gate P<-Q, 2 Gate Q<-P, 3 Gate P<->Q, 4..6 Skip.
    void twoInputTableIsThePapers()
    {
        const int pq[] = {5, 9}; // any tensor indices
        const int p = 5, q = 9;
        using V = std::vector<SgAction>;
        QCOMPARE(sgActionsFromGene(0, pq), V{});
        QCOMPARE(sgActionsFromGene(1, pq), V{act(SgKind::Gate, p, q)});
        QCOMPARE(sgActionsFromGene(2, pq), V{act(SgKind::Gate, q, p)});
        QCOMPARE(sgActionsFromGene(3, pq), (V{act(SgKind::Gate, p, q), act(SgKind::Gate, q, p)}));
        QCOMPARE(sgActionsFromGene(4, pq), V{act(SgKind::Skip, p, q)});
        QCOMPARE(sgActionsFromGene(5, pq), V{act(SgKind::Skip, q, p)});
        QCOMPARE(sgActionsFromGene(6, pq), (V{act(SgKind::Skip, p, q), act(SgKind::Skip, q, p)}));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, sgActionsFromGene(7, pq));
    }

    // k = 3 (A, B, C): Gate A<-B, A<-C, B<-A, B<-C, C<-A, C<-B (1-6), A<->B, A<->C, B<->C (7-9), then
    // the same for Skip (10-18).
    void threeInputTableFollowsTheRule()
    {
        const int abc[] = {kA, kB, kC};
        using V = std::vector<SgAction>;
        const auto g = SgKind::Gate, s = SgKind::Skip;
        QCOMPARE(sgActionsFromGene(0, abc), V{});
        QCOMPARE(sgActionsFromGene(1, abc), V{act(g, kA, kB)});
        QCOMPARE(sgActionsFromGene(2, abc), V{act(g, kA, kC)});
        QCOMPARE(sgActionsFromGene(3, abc), V{act(g, kB, kA)});
        QCOMPARE(sgActionsFromGene(4, abc), V{act(g, kB, kC)});
        QCOMPARE(sgActionsFromGene(5, abc), V{act(g, kC, kA)});
        QCOMPARE(sgActionsFromGene(6, abc), V{act(g, kC, kB)});
        QCOMPARE(sgActionsFromGene(7, abc), (V{act(g, kA, kB), act(g, kB, kA)}));
        QCOMPARE(sgActionsFromGene(8, abc), (V{act(g, kA, kC), act(g, kC, kA)}));
        QCOMPARE(sgActionsFromGene(9, abc), (V{act(g, kB, kC), act(g, kC, kB)}));
        QCOMPARE(sgActionsFromGene(10, abc), V{act(s, kA, kB)});
        QCOMPARE(sgActionsFromGene(12, abc), V{act(s, kB, kA)});
        QCOMPARE(sgActionsFromGene(15, abc), V{act(s, kC, kB)});
        QCOMPARE(sgActionsFromGene(16, abc), (V{act(s, kA, kB), act(s, kB, kA)}));
        QCOMPARE(sgActionsFromGene(18, abc), (V{act(s, kB, kC), act(s, kC, kB)}));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, sgActionsFromGene(19, abc));
        const std::string names[] = {"A", "B", "C"};
        QCOMPARE(sgGeneLabel(7, names), std::string("Gate A<->B"));
        QCOMPARE(sgGeneLabel(11, names), std::string("Skip A<-C"));
        // Every value has its own actions, and the actions find the value back in any order.
        for (int v = 0; v < 19; ++v) {
            auto actions = sgActionsFromGene(v, abc);
            std::reverse(actions.begin(), actions.end());
            QCOMPARE(sgGeneFromActions(actions, abc), std::optional<int>(v));
        }
        // No value conditions on two leaders at once.
        QCOMPARE(sgGeneFromActions({SgAction{s, kA, {kB, kC}}}, abc), std::optional<int>());
        // One input: only none.
        const int a[] = {kA};
        QCOMPARE(sgActionsFromGene(0, a), V{});
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, sgActionsFromGene(1, a));
    }

    // samples/workloads/mttkrp.yaml on edge (DRAM, GLB, PE buffer: 5 mapping levels, 3 S/G sites):
    // perm 5; tiling I 128 = 2^7, J 1024 = 2^10, K 4096 = 2^12, L 2048 = 2^11 -> 40; formats 4 x 5 = 20
    // (A, B, C, O); S/G 3 of 0..18. 68 genes.
    void mttkrpLayoutByHand()
    {
        const Workload w = test::sampleWorkload("mttkrp");
        const GenomeLayout layout(w, loadPreset("edge"));
        QCOMPARE(layout.size(), 68);
        QCOMPARE(layout.segment(GeneSegment::Permutation).size(), 5);
        QCOMPARE(layout.segment(GeneSegment::Tiling).size(), 40);
        QCOMPARE(layout.segment(GeneSegment::Format).size(), 20);
        QCOMPARE(layout.segment(GeneSegment::SkipGate).size(), 3);
        QCOMPARE(layout.formatSegmentCount(), 4);
        const char* names[] = {"A", "B", "C", "O"};
        for (int slot = 0; slot < 4; ++slot) {
            QCOMPARE(layout.formatTensor(slot), w.tensorIndex(names[slot]));
            QCOMPARE(layout.segmentName(GeneSegment::Format, slot), std::string(names[slot]));
            const auto r = layout.formatSegment(slot);
            QCOMPARE(r.begin, 45 + 5 * slot);
            QCOMPARE(r.size(), 5);
            QCOMPARE(layout.gene(r.begin).name, std::string(names[slot]) + "[1]");
            QCOMPARE(layout.gene(r.begin).formatSlot, slot);
            QCOMPARE(layout.partOf(r.begin), 2 + slot);
        }
        QCOMPARE(layout.parts().size(), std::size_t(7));
        QCOMPARE(layout.inputTensors(), (std::vector<int>{0, 1, 2}));
        QCOMPARE(layout.outputTensor(), 3);
        for (int i = 65; i < 68; ++i) {
            QCOMPARE(layout.gene(i).segment, GeneSegment::SkipGate);
            QCOMPARE(layout.gene(i).lower, 0);
            QCOMPARE(layout.gene(i).upper, 18);
        }
        QVERIFY(layout.gene(65).description.find("7 Gate A<->B") != std::string::npos);
        QVERIFY(layout.gene(65).description.find("18 Skip B<->C)") != std::string::npos);
        // The paper's count: 5^(5 * 4) x 19^3 for the sparse strategy.
        QVERIFY(std::abs(layout.sparseSpaceLog10() - (20 * std::log10(5.0) + 3 * std::log10(19.0))) < 1e-12);
    }

    void oneInputKeepsAnSgGeneOfOneValue()
    {
        const Workload w = parseWorkloadYaml(R"(version: 1
workload:
  name: copy
  type: general
  dims: {M: 6}
  tensors:
    - {name: X, ranks: [M], density: 0.5}
    - {name: Y, ranks: [M], output: true}
)");
        const GenomeLayout layout(w, test::toyArchitecture());
        // perm 5 (1 dim: code 1 only), tiling 6 = 2*3 -> 2, formats X and Y 10, S/G 3 of 0..0.
        QCOMPARE(layout.size(), 5 + 2 + 10 + 3);
        QCOMPARE(layout.formatSegmentCount(), 2);
        QCOMPARE(layout.segmentName(GeneSegment::Format, 1), std::string("Y"));
        QCOMPARE(layout.sgGeneCount(), 1);
        QCOMPARE(layout.gene(layout.size() - 1).upper, 0);
        std::mt19937_64 rng(3);
        const Genome g = randomGenome(layout, rng);
        const Design d = decodeGenome(layout, g);
        for (const auto& site : d.sparse.sites)
            QVERIFY(site.actions.empty());
        QCOMPARE(decodeGenome(layout, encodeDesign(layout, d)), d);
    }

    void noInputIsStillAnErrorNamingTheTensor()
    {
        Workload w = smallMttkrp();
        w.tensors.erase(w.tensors.begin(), w.tensors.begin() + 3);
        try {
            GenomeLayout layout(w, test::toyArchitecture());
            QFAIL("a workload without inputs was accepted");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).contains("at least one input tensor (O is only written)"), e.what());
        }
    }

    void handBuiltThreeInputGenomeDecodesAndRoundTrips()
    {
        const Workload w = smallMttkrp();
        const GenomeLayout layout(w, test::toyArchitecture());
        QCOMPARE(layout.size(), 33);
        const Genome g = handBuiltGenome();
        const Design d = decodeGenome(layout, g);
        // DRAM (storage level 0): A's ranks I1, K1, I4, L4 are B, RLE, CP, B.
        const auto& a0 = d.sparse.formats[0][kA].ranks;
        QCOMPARE(a0.size(), std::size_t(4));
        const int dimI = 0, dimK = 2, dimL = 3;
        QCOMPARE(a0[0].dim, dimI);
        QCOMPARE(a0[1].dim, dimK);
        QCOMPARE(a0[2].dim, dimI);
        QCOMPARE(a0[3].dim, dimL);
        QCOMPARE(a0[0].format, RankFormat::B);
        QCOMPARE(a0[1].format, RankFormat::RLE);
        QCOMPARE(a0[2].format, RankFormat::CP);
        QCOMPARE(a0[3].format, RankFormat::B);
        // PE buffer (storage level 2): A keeps I4, L4 -> CP, B; O keeps I4, J4 -> U, B.
        QCOMPARE(d.sparse.formats[2][kA].ranks.size(), std::size_t(2));
        QCOMPARE(d.sparse.formats[2][kA].ranks[0].format, RankFormat::CP);
        QCOMPARE(d.sparse.formats[2][kO].ranks[1].format, RankFormat::B);
        QCOMPARE(d.sparse.formats[0][kO].ranks[0].format, RankFormat::UOP);
        QCOMPARE(d.sparse.formats[0][kC].ranks[1].format, RankFormat::RLE);
        using V = std::vector<SgAction>;
        QCOMPARE(d.sparse.sites.size(), std::size_t(3));
        QCOMPARE(d.sparse.sites[0].storageLevel, 1);
        QCOMPARE(d.sparse.sites[0].actions, (V{act(SgKind::Gate, kA, kB), act(SgKind::Gate, kB, kA)}));
        QCOMPARE(d.sparse.sites[1].actions, V{act(SgKind::Skip, kB, kC)});
        QCOMPARE(d.sparse.sites[2].storageLevel, kComputeSite);
        QCOMPARE(d.sparse.sites[2].actions, (V{act(SgKind::Skip, kA, kC), act(SgKind::Skip, kC, kA)}));

        // Equal factors ascending, unused format genes U: encoding gives the hand-built genome back.
        const Genome encoded = encodeDesign(layout, d);
        QCOMPARE(encoded, g);
        QCOMPARE(decodeGenome(layout, encoded), d);
        // The canonical genome moves unit loops outermost: only the orders differ.
        const Genome canonical = canonicalGenome(layout, g);
        QVERIFY(std::equal(g.begin() + 5, g.end(), canonical.begin() + 5));
        // A random 3-input genome round-trips through its canonical form too.
        std::mt19937_64 rng(11);
        for (int i = 0; i < 200; ++i) {
            const Genome r = randomGenome(layout, rng);
            const Design dr = decodeGenome(layout, r);
            QCOMPARE(decodeGenome(layout, encodeDesign(layout, dr)), dr);
        }
    }

    void loopNestShowsEveryInputsFormats()
    {
        const Workload w = smallMttkrp();
        const GenomeLayout layout(w, test::toyArchitecture());
        const std::string text =
            renderLoopNest(w, layout.architecture(), decodeGenome(layout, handBuiltGenome()));
        QVERIFY2(text.find("O[i,j] += A[i,k,l] * B[k,j] * C[l,j]") != std::string::npos, text.c_str());
        QVERIFY2(text.find("A: B(I1)-RLE(K1)-CP(I4)-B(L4)   B: CP(K1)-B(J4)   C: B(J4)-RLE(L4)   "
                           "O: UOP(I1)-U(I4)-B(J4)") != std::string::npos,
                 text.c_str());
        QVERIFY2(text.find("GLB: Gate A <-> B") != std::string::npos, text.c_str());
        QVERIFY2(text.find("PE buffer: Skip B <- C") != std::string::npos, text.c_str());
        QVERIFY2(text.find("compute: Gate A <-> C") == std::string::npos, text.c_str());
        QVERIFY2(text.find("compute: Skip A <-> C") != std::string::npos, text.c_str());
    }

    void designYamlRoundTrips()
    {
        const Workload w = smallMttkrp();
        const Architecture arch = test::toyArchitecture();
        const GenomeLayout layout(w, arch);
        const Genome g = handBuiltGenome();
        const Design d = decodeGenome(layout, g);
        const std::string text = designToYaml(layout, g, d);
        const DesignDocument doc = parseDesignYaml(text, w, arch, "mttkrp.design.yaml");
        QCOMPARE(doc.genome, g);
        QCOMPARE(doc.design, d);

        // Without a genome: the sections alone give the same S/G genes (C <-> A written either way).
        const DesignDocument sections = parseDesignYaml(R"(version: 1
design:
  mapping:
    - {level: L1_T, bounds: {I: 2, K: 2}}
    - {level: L2_T}
    - {level: L2_S}
    - {level: L3_T, bounds: {I: 2, J: 2, L: 2}}
    - {level: L3_S}
  skipping_gating:
    GLB: Gate B <-> A
    PE buffer: Skip B <- C
    compute: Skip C <-> A
)",
                                                        w, arch);
        const auto sg = layout.segment(GeneSegment::SkipGate);
        QCOMPARE(std::vector<int>(sections.genome.begin() + sg.begin, sections.genome.end()),
                 (std::vector<int>{7, 13, 17}));

        // An S/G the genome has no value for names every allowed form of the three inputs.
        try {
            parseDesignYaml(R"(version: 1
design:
  mapping:
    - {level: L1_T, bounds: {I: 4, J: 2, K: 2, L: 2}}
    - {level: L2_T}
    - {level: L2_S}
    - {level: L3_T}
    - {level: L3_S}
  skipping_gating:
    compute: Skip A <- B, C
)",
                            w, arch, "two-leaders.design.yaml");
            QFAIL("an S/G without a gene value was accepted");
        } catch (const InputError& e) {
            const QString what = e.what();
            QVERIFY2(what.contains("two-leaders.design.yaml:"), e.what());
            QVERIFY2(what.contains("Gate C <- B, Gate A <-> B"), e.what());
            QVERIFY2(what.contains("Skip B <-> C"), e.what());
        }
    }

    // Every search method runs on the 3-input genome within its budget and logs genomes of the layout;
    // an invalid point says why. SparseMap ES and the mapper find a valid design.
    void everySearchMethodRunsOnThreeInputs()
    {
        const Workload w = smallMttkrp();
        const GenomeLayout layout(w, test::toyArchitecture());
        for (const auto& method : search::searchMethods()) {
            search::SearchSettings settings;
            settings.budget = 300;
            settings.seed = 1;
            settings.threads = 1;
            const auto optimizer = method.make();
            const auto r = search::runSearch(*optimizer, layout, settings);
            QVERIFY2(r.points.size() > 0 && r.points.size() <= 300, method.name.c_str());
            for (std::size_t i = 0; i < r.points.size(); ++i) {
                const auto p = r.points[i];
                if (!p.genome.empty())
                    layout.validate(Genome(p.genome));
                QVERIFY2(p.valid || !p.reason.empty(), method.name.c_str());
            }
            if (method.name == "sparsemap" || method.name == "mapper")
                QVERIFY2(r.best().has_value(), method.name.c_str());
        }
    }
};

QTEST_APPLESS_MAIN(TestGenomeInputs)
#include "test_genome_inputs.moc"
