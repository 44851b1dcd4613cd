// The binder: exact and greedy maximum independent set, the conflict graph's rules, and bindings
// checked resource by resource.
#include "cgra/binder.hpp"
#include "cgra/paper_blocks.hpp"
#include "cgra/scheduler.hpp"

#include <QtTest>

#include <random>
#include <set>

using namespace sparsemap::cgra;

namespace {

MisGraph randomGraph(int n, double p, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    MisGraph g;
    g.adjacency.assign(std::size_t(n), {});
    for (int a = 0; a < n; ++a)
        for (int b = a + 1; b < n; ++b)
            if (double(rng() >> 11) * 0x1.0p-53 < p) {
                g.adjacency[std::size_t(a)].push_back(b);
                g.adjacency[std::size_t(b)].push_back(a);
            }
    for (auto& row : g.adjacency)
        std::sort(row.begin(), row.end());
    for (int v = 0; v < n; ++v)
        g.groups.push_back({v}); // singletons are cliques
    return g;
}

int bruteForceMis(const MisGraph& g)
{
    const int n = g.vertexCount();
    int best = 0;
    for (std::uint32_t set = 0; set < (1u << n); ++set) {
        bool ok = true;
        for (int a = 0; a < n && ok; ++a)
            if (set >> a & 1)
                for (int b : g.adjacency[std::size_t(a)])
                    if (set >> b & 1)
                        ok = false;
        if (ok)
            best = std::max(best, std::popcount(set));
    }
    return best;
}

// Checks a binding resource by resource, independently of the conflict graph.
void verifyBinding(const Schedule& s, const CgraSpec& cgra, const BindingResult& b, bool partial = false)
{
    std::set<std::tuple<int, int, int>> used; // (class, resource, slot)
    for (std::size_t v = 0; v < s.graph.nodes.size(); ++v) {
        const auto kind = s.graph.nodes[v].kind;
        const int cls = kind == NodeKind::Read ? 0 : kind == NodeKind::Write ? 1 : 2;
        if (partial && b.resource[v] < 0)
            continue;
        QVERIFY(b.resource[v] >= 0);
        QVERIFY2(used.insert({cls, b.resource[v], s.modulo(int(v))}).second,
                 "a resource used twice in a slot");
    }
    for (const auto& e : s.graph.edges) {
        if (b.resource[std::size_t(e.from)] < 0 || b.resource[std::size_t(e.to)] < 0)
            continue;
        if (e.kind == EdgeKind::Input) // R2: the consumer sits in the bus's column
            QCOMPARE(b.resource[std::size_t(e.to)] % cgra.cols, b.resource[std::size_t(e.from)]);
        if (e.kind == EdgeKind::Output) // R2: the producer sits in the bus's row
            QCOMPARE(b.resource[std::size_t(e.from)] / cgra.cols, b.resource[std::size_t(e.to)]);
    }
}

} // namespace

class TestCgraBinding : public QObject {
    Q_OBJECT
private slots:
    void fiveCycleHasIndependenceNumberTwo()
    {
        MisGraph g;
        g.adjacency = {{1, 4}, {0, 2}, {1, 3}, {2, 4}, {0, 3}};
        g.groups = {{0}, {1}, {2}, {3}, {4}};
        const auto exact = solveMisExact(g, 1000);
        QVERIFY(exact.optimal);
        QCOMPARE(int(exact.vertices.size()), 2);
        QCOMPARE(int(solveMisGreedy(g).vertices.size()), 2);
    }

    void exactMatchesBruteForceAndGreedyIsIndependent()
    {
        for (std::uint64_t seed = 1; seed <= 40; ++seed) {
            const auto g = randomGraph(14, 0.25 + 0.01 * double(seed % 10), seed);
            const int truth = bruteForceMis(g);
            const auto exact = solveMisExact(g, 1'000'000);
            QVERIFY(exact.optimal);
            QVERIFY(isIndependentSet(g, exact.vertices));
            QCOMPARE(int(exact.vertices.size()), truth);
            const auto greedy = solveMisGreedy(g);
            QVERIFY(isIndependentSet(g, greedy.vertices));
            QVERIFY(int(greedy.vertices.size()) <= truth);
            QVERIFY(int(greedy.vertices.size()) >= truth - 2);
        }
    }

    void conflictGraphSizeByHand()
    {
        // Fig. 4 on 4 x 4 with multicast: r0, r0' (2 readings x 4 buses), 5 multiplications (x 16 PEs),
        // 5 writings (x 4 buses), one COP for the fifth writing (x 16 PEs).
        const auto s = scheduleSparseMap(figure4Block(), paperCgra()).schedule;
        QCOMPARE(s.graph.count(NodeKind::Read), 2);
        QCOMPARE(s.graph.count(NodeKind::Cop), 1);
        const auto cg = buildConflictGraph(s, paperCgra());
        QCOMPARE(cg.graph.vertexCount(), 2 * 4 + 5 * 16 + 5 * 4 + 1 * 16);
        QCOMPARE(int(cg.graph.groups.size()), int(s.graph.nodes.size()));
        // Every group is a clique (R1 (1) and one PE per operation).
        for (const auto& group : cg.graph.groups)
            for (std::size_t i = 0; i < group.size(); ++i)
                for (std::size_t j = i + 1; j < group.size(); ++j)
                    QVERIFY(cg.graph.adjacent(group[i], group[j]));
    }

    void figureBlocksBindExactly()
    {
        for (const auto& [block, cgra] :
             {std::pair{figure3Block(), figure3Cgra()}, std::pair{figure4Block(), paperCgra()}}) {
            const auto s = scheduleSparseMap(block, cgra).schedule;
            const auto b = bindSchedule(s, cgra);
            QVERIFY2(b.success, b.failure.c_str());
            QCOMPARE(b.solver, std::string("exact"));
            QCOMPARE(b.boundNodes, int(s.graph.nodes.size()));
            verifyBinding(s, cgra, b);
        }
    }

    void greedyBinderComesCloseToExact()
    {
        BinderOptions greedyOnly;
        greedyOnly.exactVertexLimit = 0;
        int matches = 0;
        for (const auto& block : paperBlocks()) {
            const auto s = scheduleSparseMap(block, paperCgra()).schedule;
            const auto greedy = bindSchedule(s, paperCgra(), greedyOnly);
            const auto exact = bindSchedule(s, paperCgra());
            QCOMPARE(greedy.solver, std::string("greedy"));
            verifyBinding(s, paperCgra(), greedy, true); // whatever it binds is conflict-free
            QVERIFY(greedy.boundNodes <= exact.boundNodes || !exact.optimal);
            QVERIFY2(greedy.boundNodes >= exact.boundNodes - 1, block.name.c_str());
            matches += greedy.boundNodes == exact.boundNodes;
        }
        QVERIFY2(matches >= 4, qPrintable(QString::number(matches)));
    }

    void weightsBeyondTheLrfsAreReportedBeforeBinding()
    {
        // C1K5 on a 1 x 1 array with 4 LRF registers: 5 weights cannot stay on the one PE.
        CgraSpec one;
        one.rows = one.cols = 1;
        one.lrfCapacity = 4;
        const auto s = scheduleSparseMap(figure4Block(), one).schedule;
        const auto b = bindSchedule(s, one);
        QVERIFY(!b.success);
        QCOMPARE(b.failure, std::string("5 weights do not fit in the LRFs (1 PEs x 4 registers)"));
        QCOMPARE(b.conflictVertices, 0);
    }

    void figure3GrfOfOneMapsOnlyWithAiba()
    {
        // The paper's Fig. 3 story: at II = 2 each MCID of the channel-order schedule joins operations in
        // the same modulo slot (m@0 -> add@2), so it cannot stay in one PE's LRF and needs the GRF; with a
        // GRF for one value the mapping fails at II = 2 without AIBA (3 MCIDs) and succeeds with it (1).
        auto cgra = figure3Cgra();
        cgra.grfCapacity = 1;
        const auto without = scheduleSparseMap(figure3Block(), cgra, {false, true, true}).schedule;
        const auto with = scheduleSparseMap(figure3Block(), cgra, {true, true, true}).schedule;
        QCOMPARE(without.ii, 2);
        QCOMPARE(with.ii, 2);
        const auto failed = bindSchedule(without, cgra);
        QVERIFY(!failed.success);
        QCOMPARE(failed.grfRegisters, 3);
        QCOMPARE(failed.failure, std::string("MCIDs between PEs need 3 GRF registers; capacity 1"));
        const auto mapped = bindSchedule(with, cgra);
        QVERIFY2(mapped.success, mapped.failure.c_str());
        QCOMPARE(mapped.grfRegisters, 1);
        verifyBinding(with, cgra, mapped);
    }
};

QTEST_GUILESS_MAIN(TestCgraBinding)
#include "test_cgra_binding.moc"
